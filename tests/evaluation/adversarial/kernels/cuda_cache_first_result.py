"""Attack: compute once and return the same cached tensor on every later call, whatever the input (CuPy form).

Harness weakness targeted: KernelBench checks correctness on a few input sets generated
up front, then times repeated calls on one fixed input; a candidate that is right on the
first call and returns the stored tensor afterwards (after a one-thread "touch" launch,
so a kernel did run) looks infinitely fast in the timed loop. The Triton twin is
``cache_first_result.py``. kernelevo checks several calls per variant (fresh inputs, the
same buffers refilled, the first inputs again); the second call gets the old answer
back, which the judge recognises as the first call's result: ``cached_output``.
"""

import cupy as cp
import torch
import torch.nn as nn

CUDA_SRC = r"""
extern "C" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ out, long long n) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = x[i];
        out[i] = 0.5f * v * (1.0f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v)));
    }
}

extern "C" __global__ void touch_kernel(float* out) {
    out[0] = out[0];
}
"""

_module = cp.RawModule(code=CUDA_SRC, options=("--std=c++17",))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.result = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        with cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            if self.result is not None:
                _module.get_function("touch_kernel")((1,), (1,), (self.result.data_ptr(),))
                return self.result
            x = x.contiguous()
            out = torch.empty_like(x)
            n = x.numel()
            _module.get_function("gelu_kernel")(((n + 255) // 256,), (256,), (x.data_ptr(), out.data_ptr(), cp.int64(n)))
        self.result = out
        return out
