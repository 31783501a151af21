"""kernelevo 0.1.0: best kernel for spec 'softmax_cuda'
spec sha256: e7fc4bc4edc17e62e1fe84e92cb698d6e35205c90d7be751dc6454c0fb516ee6
hardware: h200
exported: 2026-11-24T01:46:46+00:00
measured on: NVIDIA H200 (vm); torch 2.11.0+cu130, triton 3.6.0, python 3.12.3, CUDA 13.0
timings: median 0.2623 ms (IQR 0.0014), 2.10x eager, 1.13x torch.compile, 96% of roofline
variants checked: small, odd, default
"""
import cupy as cp
import torch
import torch.nn as nn

CUDA_SRC = r"""
#define THREADS 512
#define WARPS (THREADS / 32)
#define CACHED 16  // values per thread kept in registers: THREADS * CACHED = 8192 columns read once
static_assert(CACHED % 4 == 0 && CACHED >= 4, "the cached path reads whole float4s: CACHED / 4 per thread");

#define NEG_BIG (-3.402823466e+38f)  // -FLT_MAX: the running max before any value
#define NEG_INF (-__int_as_float(0x7f800000))

// merge the pair (m2, s2) into (m, s): s is a sum of exp(x - m)
__device__ __forceinline__ void merge(float& m, float& s, float m2, float s2) {
    const float nm = fmaxf(m, m2);
    s = s * __expf(m - nm) + s2 * __expf(m2 - nm);
    m = nm;
}

// fold four values into (m, s): one rescale per four values
__device__ __forceinline__ void add4(float& m, float& s, float a, float b, float c, float d) {
    const float nm = fmaxf(m, fmaxf(fmaxf(a, b), fmaxf(c, d)));
    s = s * __expf(m - nm) + ((__expf(a - nm) + __expf(b - nm)) + (__expf(c - nm) + __expf(d - nm)));
    m = nm;
}

__device__ __forceinline__ void add1(float& m, float& s, float v) {
    const float nm = fmaxf(m, v);
    s = s * __expf(m - nm) + __expf(v - nm);
    m = nm;
}

// every thread of the block ends with the block's merged (m, s)
__device__ __forceinline__ void block_merge(float& m, float& s) {
    __shared__ float warp_m[WARPS];
    __shared__ float warp_s[WARPS];
    __shared__ float row_m;
    __shared__ float row_s;
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        const float m2 = __shfl_xor_sync(0xffffffffu, m, offset);
        const float s2 = __shfl_xor_sync(0xffffffffu, s, offset);
        merge(m, s, m2, s2);
    }
    const int warp = threadIdx.x >> 5;
    const int lane = threadIdx.x & 31;
    if (lane == 0) {
        warp_m[warp] = m;
        warp_s[warp] = s;
    }
    __syncthreads();
    if (warp == 0) {
        m = lane < WARPS ? warp_m[lane] : NEG_BIG;
        s = lane < WARPS ? warp_s[lane] : 0.0f;
#pragma unroll
        for (int offset = 16; offset > 0; offset >>= 1) {
            const float m2 = __shfl_xor_sync(0xffffffffu, m, offset);
            const float s2 = __shfl_xor_sync(0xffffffffu, s, offset);
            merge(m, s, m2, s2);
        }
        if (lane == 0) {
            row_m = m;
            row_s = s;
        }
    }
    __syncthreads();
    m = row_m;
    s = row_s;
}

// VEC: n_cols % 4 == 0 and x, out 16-byte aligned, so every row is a whole number of aligned float4s
template <bool VEC>
__device__ __forceinline__ void softmax_row(const float* __restrict__ x, float* __restrict__ out, long long n_cols) {
    const long long row = blockIdx.x;
    const float* __restrict__ xr = x + row * n_cols;
    float* __restrict__ outr = out + row * n_cols;
    const float4* __restrict__ xr4 = reinterpret_cast<const float4*>(xr);
    float4* __restrict__ outr4 = reinterpret_cast<float4*>(outr);
    const long long n_vec = n_cols / 4;
    const int tid = threadIdx.x;
    float m = NEG_BIG;
    float s = 0.0f;

    if (n_cols <= (long long)THREADS * CACHED) {
        // the whole row fits in registers: one read, one write
        float v[CACHED];
        if (VEC) {
#pragma unroll
            for (int j = 0; j < CACHED / 4; ++j) {
                const long long c = tid + (long long)j * THREADS;
                const float4 q = c < n_vec ? xr4[c] : make_float4(NEG_INF, NEG_INF, NEG_INF, NEG_INF);
                v[4 * j + 0] = q.x;
                v[4 * j + 1] = q.y;
                v[4 * j + 2] = q.z;
                v[4 * j + 3] = q.w;
                add4(m, s, q.x, q.y, q.z, q.w);
            }
        } else {
#pragma unroll
            for (int j = 0; j < CACHED; ++j) {
                const long long c = tid + (long long)j * THREADS;
                v[j] = c < n_cols ? xr[c] : NEG_INF;
            }
#pragma unroll
            for (int j = 0; j < CACHED; j += 4) {
                add4(m, s, v[j], v[j + 1], v[j + 2], v[j + 3]);
            }
        }
        block_merge(m, s);
        const float inv = 1.0f / s;
        if (VEC) {
#pragma unroll
            for (int j = 0; j < CACHED / 4; ++j) {
                const long long c = tid + (long long)j * THREADS;
                if (c < n_vec) {
                    outr4[c] = make_float4(__expf(v[4 * j + 0] - m) * inv, __expf(v[4 * j + 1] - m) * inv,
                                           __expf(v[4 * j + 2] - m) * inv, __expf(v[4 * j + 3] - m) * inv);
                }
            }
        } else {
#pragma unroll
            for (int j = 0; j < CACHED; ++j) {
                const long long c = tid + (long long)j * THREADS;
                if (c < n_cols) {
                    outr[c] = __expf(v[j] - m) * inv;
                }
            }
        }
    } else {
        // longer rows: the online statistics in one sweep, then a second sweep reads and writes
        if (VEC) {
            for (long long c = tid; c < n_vec; c += THREADS) {
                const float4 q = xr4[c];
                add4(m, s, q.x, q.y, q.z, q.w);
            }
        } else {
            for (long long c = tid; c < n_cols; c += THREADS) {
                add1(m, s, xr[c]);
            }
        }
        block_merge(m, s);
        const float inv = 1.0f / s;
        if (VEC) {
            for (long long c = tid; c < n_vec; c += THREADS) {
                const float4 q = xr4[c];
                outr4[c] = make_float4(__expf(q.x - m) * inv, __expf(q.y - m) * inv, __expf(q.z - m) * inv,
                                       __expf(q.w - m) * inv);
            }
        } else {
            for (long long c = tid; c < n_cols; c += THREADS) {
                outr[c] = __expf(xr[c] - m) * inv;
            }
        }
    }
}

extern "C" __global__ void __launch_bounds__(THREADS)
softmax_rows_vec4(const float* __restrict__ x, float* __restrict__ out, long long n_cols) {
    softmax_row<true>(x, out, n_cols);
}

extern "C" __global__ void __launch_bounds__(THREADS)
softmax_rows_scalar(const float* __restrict__ x, float* __restrict__ out, long long n_cols) {
    softmax_row<false>(x, out, n_cols);
}
"""

_module = cp.RawModule(code=CUDA_SRC, options=("--std=c++17",))

THREADS = 512  # must match THREADS in CUDA_SRC (the kernels' reductions assume it)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n_cols = x.shape[-1]
        n_rows = x.numel() // n_cols
        # float4 only if every row starts 16-byte aligned: whole float4s per row, aligned bases
        vec = n_cols % 4 == 0 and x.data_ptr() % 16 == 0 and out.data_ptr() % 16 == 0
        kernel = _module.get_function("softmax_rows_vec4" if vec else "softmax_rows_scalar")
        with cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            kernel((n_rows,), (THREADS,), (x.data_ptr(), out.data_ptr(), cp.int64(n_cols)))
        return out
