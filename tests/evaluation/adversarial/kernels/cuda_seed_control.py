"""Control: the correct CuPy GELU seed (examples/gelu_cuda/seed.py as first committed).

Not an attack. Every options combination the CUDA cases use must accept it on a GPU, so a
rejection of a CUDA attack is not just an evaluator that rejects every CUDA kernel; on a
machine without a GPU it must pass the static checks and be reported ``needs_gpu``.
"""

import cupy as cp
import torch
import torch.nn as nn

CUDA_SRC = r"""
__device__ __forceinline__ float gelu_tanh(float x) {
    // gelu(x) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    const float k0 = 0.7978845608028654f;
    const float k1 = 0.044715f;
    const float inner = k0 * fmaf(k1 * x, x * x, x);
    return 0.5f * x * (1.0f + tanhf(inner));
}

// one float4 per thread: x and out 16-byte aligned, n_vec = n / 4 whole vectors
extern "C" __global__ void gelu_vec4_kernel(const float4* __restrict__ x, float4* __restrict__ out,
                                            long long n_vec) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n_vec) {
        float4 v = x[i];
        v.x = gelu_tanh(v.x);
        v.y = gelu_tanh(v.y);
        v.z = gelu_tanh(v.z);
        v.w = gelu_tanh(v.w);
        out[i] = v;
    }
}

// one element per thread, elements [start, n): the tail after the vectors, or everything
extern "C" __global__ void gelu_scalar_kernel(const float* __restrict__ x, float* __restrict__ out,
                                              long long start, long long n) {
    const long long i = start + (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = gelu_tanh(x[i]);
    }
}
"""

_module = cp.RawModule(code=CUDA_SRC, options=("--std=c++17",))

THREADS = 256


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        aligned = x.data_ptr() % 16 == 0 and out.data_ptr() % 16 == 0
        n_vec = n // 4 if aligned else 0
        start = 4 * n_vec  # first element the scalar kernel handles
        vec_kernel = _module.get_function("gelu_vec4_kernel")
        scalar_kernel = _module.get_function("gelu_scalar_kernel")
        # launch on torch's current stream, so the work is ordered with torch's and timed where it runs
        with cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            if n_vec > 0:
                blocks = (n_vec + THREADS - 1) // THREADS
                vec_kernel((blocks,), (THREADS,), (x.data_ptr(), out.data_ptr(), cp.int64(n_vec)))
            if start < n:
                blocks = (n - start + THREADS - 1) // THREADS
                scalar_kernel((blocks,), (THREADS,), (x.data_ptr(), out.data_ptr(), cp.int64(start), cp.int64(n)))
        return out
