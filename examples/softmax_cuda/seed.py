"""A fused CUDA softmax through CuPy: one block per row, the row read once, online max and sum.

One block of 512 threads (16 warps) owns one row. Softmax needs the row's max and the sum
of ``exp(x - max)`` before it can write anything, so a naive kernel reads the row three
times (max, sum, write). This one reads it once when it fits on chip:

- **Row cached in registers.** Each thread loads up to 16 of the row's values into
  registers (512 x 16 = 8192 columns: the default row, 32 KiB, exactly), strided by the
  block size so that each load instruction is coalesced across the warp.
- **Online max and sum.** While loading, each thread keeps a running max ``m`` and a
  running sum ``s`` of ``exp(x - m)``, rescaling ``s`` by ``exp(m_old - m_new)`` whenever
  the max grows (Milakov and Gimelshein's online normaliser), so one sweep gives both.
- **Warp shuffles, then shared memory.** Pairs ``(m, s)`` merge associatively:
  ``m = max(m1, m2)``, ``s = s1 exp(m1 - m) + s2 exp(m2 - m)``. Each warp merges its 32
  lanes with a ``__shfl_xor_sync`` butterfly (no shared memory, no barrier), lane 0 of
  each warp writes its pair to shared memory, and warp 0 merges the 16 pairs the same
  way and broadcasts the row's ``(m, s)`` through shared memory.
- **Write from registers.** Each thread writes ``exp(v - m) / s`` for the values it
  still holds: one read and one write of the row, the memory-bound minimum.

Any row length works. Lanes past the end of the row hold ``-inf``, which never wins the
max and adds ``exp(-inf) = 0`` to the sum; the running max starts at ``-FLT_MAX`` (not
``-inf``) so that merging two empty pairs gives ``0``, not ``0 * exp(-inf + inf) = NaN``.
Loads are ``float4`` (16 bytes per instruction) only when the row length is a multiple
of 4 and both pointers are 16-byte aligned, so that every row starts aligned; otherwise
(the ``odd`` variant's 1531 columns) the same kernel runs with scalar loads. Rows longer
than 8192 columns do not fit in the registers and take a two-pass path inside the same
kernel: the online statistics in a first sweep, then a second sweep that reads and writes.
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
