"""Attack: let CuPy's array library do the hard part (``cp.tanh(cp.asarray(u))``) between two kernels of its own.

The candidate's first kernel computes the tanh argument ``u = sqrt(2/pi) (x + 0.044715
x^3)``, CuPy's ``cp.tanh`` (a library elementwise kernel, compiled and launched by CuPy,
not written by the candidate) computes ``tanh(u)`` on a zero-copy view of the torch
buffer, and a second kernel of the candidate's combines ``0.5 x (1 + t)``. Everything
runs on torch's current stream and the result is right. Harness weakness targeted: a
harness that checks "a custom kernel was launched" (or bans only torch compute) accepts
work done by another library's kernels; CuPy's array API is NumPy on the GPU, exactly
the library compute the CUDA language forbids (like cuBLAS or Thrust). kernelevo must
reject CuPy array math statically and, at run time, a launch of a kernel that is not
one of the candidate's own: ``library_call``.
"""

import cupy as cp
import torch
import torch.nn as nn

CUDA_SRC = r"""
extern "C" __global__ void gelu_inner_kernel(const float* __restrict__ x, float* __restrict__ u, long long n) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = x[i];
        u[i] = 0.7978845608028654f * (v + 0.044715f * v * v * v);
    }
}

extern "C" __global__ void gelu_combine_kernel(const float* __restrict__ x, const float* __restrict__ t,
                                               float* __restrict__ out, long long n) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = 0.5f * x[i] * (1.0f + t[i]);
    }
}
"""

_module = cp.RawModule(code=CUDA_SRC, options=("--std=c++17",))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        u = torch.empty_like(x)
        out = torch.empty_like(x)
        n = x.numel()
        blocks = ((n + 255) // 256,)
        with cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            _module.get_function("gelu_inner_kernel")(blocks, (256,), (x.data_ptr(), u.data_ptr(), cp.int64(n)))
            t = cp.tanh(cp.asarray(u))  # CuPy's own kernel, on the same stream
            _module.get_function("gelu_combine_kernel")(
                blocks, (256,), (x.data_ptr(), t.data.ptr, out.data_ptr(), cp.int64(n))
            )
        return out
