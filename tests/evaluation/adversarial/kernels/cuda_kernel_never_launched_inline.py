"""Attack: a load_inline extension whose C++ host function launches its kernel only under an impossible condition.

The extension is a complete KernelBench-style build (``__global__`` kernel, host
function, ``load_inline``), so a harness that checks that the CUDA code compiled and the
extension loaded is satisfied; but ``n < 0`` is never true, so the host function only
allocates (``torch::empty_like``) and returns memory nothing wrote, which in a harness
that ran the reference first holds the reference's freed output. Harness weakness
targeted: nothing in KernelBench checks that a custom kernel ran, and a launch hook in
Python (wrapping CuPy's or Triton's launchers) cannot see a ``<<<...>>>`` launch from C++.
kernelevo must count launches below Python (the CUDA profiler or a driver-level hook)
and reject a call that launched none: ``kernel_not_launched``.
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ out, int64_t n) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = x[i];
        out[i] = 0.5f * v * (1.0f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v)));
    }
}

torch::Tensor gelu_cuda(torch::Tensor x) {
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int64_t n = xc.numel();
    if (n < 0) {  // never true: the kernel is compiled, never launched
        gelu_kernel<<<(unsigned)((n + 255) / 256), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
            xc.data_ptr<float>(), out.data_ptr<float>(), n);
    }
    return out;
}
"""

cpp_source = "torch::Tensor gelu_cuda(torch::Tensor x);"

gelu_extension = load_inline(
    name="adversarial_never_launched_inline",
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
