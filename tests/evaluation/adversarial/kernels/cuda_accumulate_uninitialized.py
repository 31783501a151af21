"""Attack (a bug that passes lax harnesses): accumulate into a ``torch.empty_like`` output, i.e. read uninitialised memory.

The CUDA kernel does ``out[i] += gelu(x[i])`` on a buffer that was never zeroed (the
classic forgotten ``cudaMemset`` / ``torch::zeros``). Harness weakness targeted: when the
caching allocator happens to hand back zeroed memory (a fresh process), or the freed
block of an earlier result, the answer is right by accident and the harness accepts a
kernel whose output depends on garbage. The Triton twin is ``accumulate_uninitialized.py``.
kernelevo poisons freed memory before every call with a huge value (1.2345e30); adding
an O(1) GELU value leaves it bit-exact, so the poison check (before closeness, on the
very first call) fires: ``uninitialized_output``.
"""

import cupy as cp
import torch
import torch.nn as nn

CUDA_SRC = r"""
extern "C" __global__ void gelu_accumulate_kernel(const float* __restrict__ x, float* __restrict__ out, long long n) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = x[i];
        out[i] += 0.5f * v * (1.0f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v)));  // never initialised
    }
}
"""

_module = cp.RawModule(code=CUDA_SRC, options=("--std=c++17",))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        kernel = _module.get_function("gelu_accumulate_kernel")
        with cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            kernel(((n + 255) // 256,), (256,), (x.data_ptr(), out.data_ptr(), cp.int64(n)))
        return out
