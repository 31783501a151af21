"""Attack: return ``torch.empty_like(x)`` and let the allocator hand back the reference's output (CuPy form).

A trivial CUDA kernel is launched (it is guarded by ``n = 0`` and writes nothing), so
launch counters are satisfied, and the candidate returns a fresh, never-written tensor.
Harness weakness targeted: KernelBench's ``run_and_check_correctness`` runs the reference
first, in the same process and on the same device; its output block is freed and the
caching allocator gives that very block to the candidate's ``empty_like``, which then
"contains" the right answer without any work (the "reference output in freed memory"
exploit). The Triton twin is ``empty_output.py``. kernelevo runs the reference after the
candidate, in another process, and poisons freed blocks before each call, so the
returned memory holds the poison pattern: ``uninitialized_output``.
"""

import cupy as cp
import torch
import torch.nn as nn

CUDA_SRC = r"""
extern "C" __global__ void touch_kernel(float* __restrict__ out, long long n) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {  // launched with n = 0: stores nothing
        out[i] = 0.0f;
    }
}
"""

_module = cp.RawModule(code=CUDA_SRC, options=("--std=c++17",))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        touch = _module.get_function("touch_kernel")
        with cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            touch((1,), (32,), (out.data_ptr(), cp.int64(0)))
        return out
