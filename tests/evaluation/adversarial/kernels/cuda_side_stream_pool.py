"""Attack: the C++ host function takes a stream from ATen's pool (``at::cuda::getStreamFromPool()``) and launches on it.

This is what generated CUDA code does "for overlap": a pooled stream is a real, separate
stream (ATen creates its pool streams non-blocking), so the harness's events on the
current stream time only the launch, while the result is right after a device-wide
synchronise. Unlike ``cudaStreamCreate`` it is an ATen call, which a check that only
looks for the CUDA runtime's stream constructors, or only for Python stream APIs, does
not catch. Harness weakness targeted: KernelBench times with ``torch.cuda.Event`` on the
current stream (Triton twin: ``side_stream.py``). kernelevo rejects ``getStreamFromPool``
statically and must see, at run time, the candidate's kernel on a stream other than
torch's current one: ``side_stream``.
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
    const int threads = 256;
    const int blocks = (int)((n + threads - 1) / threads);
    at::cuda::CUDAStream stream = at::cuda::getStreamFromPool();
    gelu_kernel<<<blocks, threads, 0, stream.stream()>>>(xc.data_ptr<float>(), out.data_ptr<float>(), n);
    return out;
}
"""

cpp_source = "torch::Tensor gelu_cuda(torch::Tensor x);"

gelu_extension = load_inline(
    name="adversarial_side_stream_pool",
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
