"""Two honest tanh-GELU CUDA candidates, one per form (CuPy and KernelBench's load_inline),
which the CUDA tests change one line at a time."""

KERNEL = r'''extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long n) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = 0.5f * v * (1.0f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v)));
    }
}'''

CUPY = f'''
import cupy as cp
import torch
import torch.nn as nn

SRC = r"""{KERNEL}"""
_module = cp.RawModule(code=SRC, options=("--std=c++17",))


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        kernel = _module.get_function("gelu_kernel")
        with cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            kernel(((n + 255) // 256,), (256,), (x.data_ptr(), y.data_ptr(), cp.int64(n)))
        return y
'''

LOAD_INLINE = f'''
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
{KERNEL.replace('extern "C" ', '')}

torch::Tensor gelu_cuda(torch::Tensor x) {{
    auto y = torch::empty_like(x);
    long long n = x.numel();
    gelu_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}}
"""
gelu = load_inline(name="gelu_ext", cpp_sources="torch::Tensor gelu_cuda(torch::Tensor x);",
                   cuda_sources=cuda_source, functions=["gelu_cuda"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, x):
        return gelu.gelu_cuda(x.contiguous())
'''
