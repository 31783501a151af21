"""Attack: cache results keyed on the input's address (``x.data_ptr()``), CuPy form.

The first call on a buffer runs the (correct) CUDA kernel; every later call on the same
buffer returns the stored tensor after a one-thread "touch" launch (so launch counters
see a kernel). Harness weakness targeted: KernelBench times by calling the model
repeatedly on the same input tensors, so a cache keyed on the address turns the timed
loop into dictionary look-ups (the "memoisation" exploit). The Triton twin is
``cache_by_address.py``. kernelevo calls the candidate again on the same buffers
refilled in place with new values and names the reason when the old answer comes back:
``cached_output``.
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
    out[0] = out[0];  // a cheap launch for the cached path
}
"""

_module = cp.RawModule(code=CUDA_SRC, options=("--std=c++17",))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.cache = {}

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        key = (x.data_ptr(), tuple(x.shape))
        with cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            if key in self.cache:
                out = self.cache[key]
                _module.get_function("touch_kernel")((1,), (1,), (out.data_ptr(),))
                return out
            out = torch.empty_like(x)
            n = x.numel()
            _module.get_function("gelu_kernel")(((n + 255) // 256,), (256,), (x.data_ptr(), out.data_ptr(), cp.int64(n)))
        self.cache[key] = out
        return out
