"""Attack: PyTorch compute hidden in the C++ host function of a load_inline extension (``u.tanh()``).

The candidate's first kernel computes the tanh argument ``u``; the C++ host function then
calls the ATen tensor method ``u.tanh()`` (PyTorch's kernel, dispatched from C++), and a
second kernel of the candidate's combines ``0.5 x (1 + t)``. The Python ``forward`` is a
single extension call, so an AST check of the Python source sees no torch compute, and
candidate kernels did launch. Harness weakness targeted: KernelBench checks neither which
code produced the output nor where the work ran; generated ``load_inline`` code often
"fuses" by calling ``torch::`` / ``at::`` ops or tensor methods in C++. The Python twin is
``cuda_torch_compute.py``. kernelevo scans the C++ for torch compute statically and its
op recorder sees aten ops dispatched from C++ too: ``torch_compute``.
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void gelu_inner_kernel(const float* __restrict__ x, float* __restrict__ u, int64_t n) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = x[i];
        u[i] = 0.7978845608028654f * (v + 0.044715f * v * v * v);
    }
}

__global__ void gelu_combine_kernel(const float* __restrict__ x, const float* __restrict__ t, float* __restrict__ out,
                                    int64_t n) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = 0.5f * x[i] * (1.0f + t[i]);
    }
}

torch::Tensor gelu_cuda(torch::Tensor x) {
    auto xc = x.contiguous();
    auto u = torch::empty_like(xc);
    auto out = torch::empty_like(xc);
    const int64_t n = xc.numel();
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    const int threads = 256;
    const int blocks = (int)((n + threads - 1) / threads);
    gelu_inner_kernel<<<blocks, threads, 0, stream>>>(xc.data_ptr<float>(), u.data_ptr<float>(), n);
    auto t = u.tanh();  // ATen's kernel, on the same stream
    gelu_combine_kernel<<<blocks, threads, 0, stream>>>(xc.data_ptr<float>(), t.data_ptr<float>(),
                                                        out.data_ptr<float>(), n);
    return out;
}
"""

cpp_source = "torch::Tensor gelu_cuda(torch::Tensor x);"

gelu_extension = load_inline(
    name="adversarial_torch_compute_inline",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["gelu_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.gelu = gelu_extension

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.gelu.gelu_cuda(x)
