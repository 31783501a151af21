"""Attack: a CUDA kernel that spins forever (its loop reads a flag in global memory that nothing ever sets).

The flag is a ``__device__`` global of the module (zero at load, written by no one), read
through a ``volatile`` pointer, so the compiler must keep the loop (a side-effect-free
infinite loop could be assumed away; a volatile load cannot). Harness
weakness targeted: no time limit on kernels; the launch returns at once and the hang
surfaces at the next synchronisation, inside the harness, which then waits forever
(KernelBench has no per-kernel watchdog, and a hung kernel also holds the GPU for every
later candidate of an in-process harness). The Triton twin is ``kernel_infinite_loop.py``.
kernelevo kills the child (its whole process group, and with it the CUDA context) at the
run phase's wall-clock limit: ``timeout``.
"""

import cupy as cp
import torch
import torch.nn as nn

CUDA_SRC = r"""
__device__ int go_flag;  // zero at module load; nothing ever sets it

extern "C" __global__ void gelu_spin_kernel(const float* __restrict__ x, float* __restrict__ out, long long n) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    while (*reinterpret_cast<const volatile int*>(&go_flag) == 0) {
    }
    if (i < n) {
        const float v = x[i];
        out[i] = 0.5f * v * (1.0f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v)));
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
        kernel = _module.get_function("gelu_spin_kernel")
        with cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            kernel(((n + 255) // 256,), (256,), (x.data_ptr(), out.data_ptr(), cp.int64(n)))
        return out
