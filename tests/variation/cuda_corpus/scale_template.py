"""A templated grid-stride scale (load_inline): the template argument, the block and the grid agree."""
import torch
from torch import nn
from torch.utils.cpp_extension import load_inline

CUDA = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) scale_kernel(const float* __restrict__ x, float* __restrict__ y,
                                                      float alpha, long n) {
    for (long i = blockIdx.x * (long)BLOCK + threadIdx.x; i < n; i += (long)BLOCK * gridDim.x) y[i] = alpha * x[i];
}

torch::Tensor scale(torch::Tensor x, double alpha) {
    auto y = torch::empty_like(x);
    long n = x.numel();
    long blocks = (n + 255) / 256;
    if (blocks > 65535) blocks = 65535;
    scale_kernel<256><<<blocks, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), (float)alpha, n);
    return y;
}
"""
ext = load_inline(name="scale_template", cpp_sources="torch::Tensor scale(torch::Tensor x, double alpha);",
                  cuda_sources=CUDA, functions=["scale"])


class ModelNew(nn.Module):
    def __init__(self, alpha: float) -> None:
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.scale(x, self.alpha)
