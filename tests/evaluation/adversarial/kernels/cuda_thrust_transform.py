"""Attack: a kernel of its own for the polynomial, then ``thrust::transform`` for the tanh and the product.

KernelBench-style ``load_inline`` code: ``gelu_inner_kernel`` (the candidate's) writes
``u = sqrt(2/pi) (x + 0.044715 x^3)``; ``thrust::transform`` with a device functor, on
torch's current stream (``thrust::cuda::par.on(stream)``), computes ``0.5 x (1 + tanh(u))``.
Thrust instantiates and launches its own kernels (CUB's transform/for-each machinery),
so most of the work, and the part a search should be optimising, runs in library code.
The result is right and on the right stream. Harness weakness targeted: a harness that
checks "a custom ``__global__`` kernel exists and was launched" accepts it; Thrust and
CUB are template libraries compiled into the extension, so their kernels even live in
the candidate's own binary. kernelevo rejects ``thrust::`` (and ``cub::Device``)
statically and must recognise Thrust/CUB kernels among the launches at run time:
``library_call``.
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <thrust/execution_policy.h>
#include <thrust/transform.h>

__global__ void gelu_inner_kernel(const float* __restrict__ x, float* __restrict__ u, int64_t n) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = x[i];
        u[i] = 0.7978845608028654f * (v + 0.044715f * v * v * v);
    }
}

struct HalfXOnePlusTanh {
    __host__ __device__ float operator()(float x, float u) const { return 0.5f * x * (1.0f + tanhf(u)); }
};

torch::Tensor gelu_cuda(torch::Tensor x) {
    auto xc = x.contiguous();
    auto u = torch::empty_like(xc);
    auto out = torch::empty_like(xc);
    const int64_t n = xc.numel();
    const float* xp = xc.data_ptr<float>();
    float* up = u.data_ptr<float>();
    float* op = out.data_ptr<float>();
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    const int threads = 256;
    const int blocks = (int)((n + threads - 1) / threads);
    gelu_inner_kernel<<<blocks, threads, 0, stream>>>(xp, up, n);
    thrust::transform(thrust::cuda::par.on(stream), xp, xp + n, up, op, HalfXOnePlusTanh());
    return out;
}
"""

cpp_source = "torch::Tensor gelu_cuda(torch::Tensor x);"

gelu_extension = load_inline(
    name="adversarial_thrust_transform",
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
