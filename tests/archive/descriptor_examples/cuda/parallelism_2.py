"""Parallelism level 2: a grid-stride loop (KernelBench's load_inline form)."""
import torch
from torch import nn
from torch.utils.cpp_extension import load_inline

CUDA = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void scale_kernel(const float* __restrict__ x, float* __restrict__ y, float alpha, long n) {
    long stride = (long)blockDim.x * gridDim.x;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += stride) y[i] = alpha * x[i];
}

torch::Tensor scale(torch::Tensor x, double alpha) {
    auto y = torch::empty_like(x);
    long n = x.numel();
    scale_kernel<<<1024, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), (float)alpha, n);
    return y;
}
"""
CPP = "torch::Tensor scale(torch::Tensor x, double alpha);"
ext = load_inline(name="scale_ext", cpp_sources=CPP, cuda_sources=CUDA, functions=["scale"])


class ModelNew(nn.Module):
    def __init__(self, alpha: float) -> None:
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.scale(x, self.alpha)
