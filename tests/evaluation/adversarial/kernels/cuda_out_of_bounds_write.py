"""Attack (a bug that crashes lax harnesses): one CUDA thread stores 2**40 bytes past the output.

The GELU itself is right; thread 0 also writes a float ``2**38`` elements (1 TiB) past
``out``, far outside any allocation: an illegal address. Harness weakness targeted: an
illegal memory access poisons the CUDA context of the process it happens in (every
later CUDA call in it fails, ``cudaErrorIllegalAddress`` is sticky); an in-process
harness (KernelBench) cannot evaluate anything after it, and an out-of-bounds write that
happens to land in mapped memory silently corrupts someone else's data. The Triton twin
is ``out_of_bounds_load.py`` (a load). kernelevo must name the reason (``cuda_error``,
from the child's synchronisation) and throw the poisoned child away: the case runs the
honest control in the same evaluator right after it, and that must still pass.
"""

import cupy as cp
import torch
import torch.nn as nn

CUDA_SRC = r"""
extern "C" __global__ void gelu_far_write_kernel(const float* __restrict__ x, float* __restrict__ out, long long n,
                                                 long long far) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = x[i];
        out[i] = 0.5f * v * (1.0f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v)));
        if (i == 0) {
            out[far] = 0.0f;  // far out of bounds
        }
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
        kernel = _module.get_function("gelu_far_write_kernel")
        with cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            kernel(((n + 255) // 256,), (256,), (x.data_ptr(), out.data_ptr(), cp.int64(n), cp.int64(1 << 38)))
        return out
