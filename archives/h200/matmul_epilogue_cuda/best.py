"""kernelevo 0.1.0: best kernel for spec 'matmul_epilogue_cuda'
spec sha256: db556eef3b70ebbbba09b9af27b352f12a7f180125472ade0858e5e1e1e65431
hardware: h200
exported: 2026-11-24T01:48:33+00:00
measured on: NVIDIA H200 (vm); torch 2.11.0+cu130, triton 3.6.0, python 3.12.3, CUDA 13.0
timings: median 0.6177 ms (IQR 0.0015), 0.33x eager, 0.33x torch.compile, 22% of roofline
variants checked: small, odd, default
"""
import cupy as cp
import torch
import torch.nn as nn

CUDA_SRC = r"""
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define BM 128          // block tile rows (of x and of the output)
#define BN 128          // block tile columns (rows of W)
#define BK 32           // K step
#define PAD 8           // halves of padding per shared-memory row
#define LDS (BK + PAD)  // shared-memory row pitch in halves: 40 (80 bytes)
#define THREADS 256     // 8 warps
#define WARP_M 64       // each warp: 64 x 32 of the block tile
#define WARP_N 32
#define WARPS_N (BN / WARP_N)   // 4 warps across, 2 down
#define FRAG_M (WARP_M / 16)    // 4 fragments down
#define FRAG_N (WARP_N / 16)    // 2 fragments across
#define TILE_HALVES ((BM + BN) * LDS)  // one buffer: the x tile, then the W tile (20480 bytes)
#define CHUNKS_PER_ROW (BK / 8)  // 16-byte chunks per tile row: 4
#define CHUNKS_PER_THREAD ((BM * CHUNKS_PER_ROW) / THREADS)  // 16-byte chunks of each tile per thread: 2

// What the tiling needs; the template operator drops a mutant that breaks one before it compiles.
static_assert(BM == BN, "one loop loads both tiles: as many rows of x as of W");
static_assert(BK % 16 == 0, "whole wmma steps of 16 along K");
static_assert(PAD % 8 == 0, "shared rows stay 16-byte aligned for the uint4 stores and wmma's ldm");
static_assert((BM * CHUNKS_PER_ROW) % THREADS == 0, "every thread loads the same number of whole chunks");
static_assert(WARP_M % 16 == 0 && WARP_N % 16 == 0, "whole 16 x 16 fragments per warp");
static_assert(BM % WARP_M == 0 && BN % WARP_N == 0, "warp tiles cover the block tile");
static_assert((BM / WARP_M) * (BN / WARP_N) * 32 == THREADS, "one warp per warp tile");
static_assert((THREADS / 32) * 256 * 4 <= 2 * TILE_HALVES * 2, "the epilogue's staging fits in the tile buffers");

__device__ __forceinline__ float gelu_tanh(float y) {
    const float k0 = 0.7978845608028654f;  // sqrt(2/pi)
    const float k1 = 0.044715f;
    return 0.5f * y * (1.0f + tanhf(k0 * fmaf(k1 * y, y * y, y)));
}

// Halves [k, k + 8) of row `row` of a row-major (rows x K) fp16 matrix, as raw bits; zeros outside it.
// VEC: K % 8 == 0, the base is 16-byte aligned and k % 8 == 0, so the chunk is wholly in or out.
template <bool VEC>
__device__ __forceinline__ uint4 load_chunk(const unsigned short* __restrict__ src, int rows, int K, int row, int k) {
    uint4 v = make_uint4(0u, 0u, 0u, 0u);
    if (row < rows) {
        const unsigned short* __restrict__ p = src + (long long)row * K;
        if (VEC) {
            if (k < K) {
                v = *reinterpret_cast<const uint4*>(p + k);
            }
        } else {
            unsigned int h[8];
#pragma unroll
            for (int e = 0; e < 8; ++e) {
                h[e] = (k + e < K) ? (unsigned int)p[k + e] : 0u;
            }
            // little-endian: the element at the lower address is the low half of each word
            v.x = h[0] | (h[1] << 16);
            v.y = h[2] | (h[3] << 16);
            v.z = h[4] | (h[5] << 16);
            v.w = h[6] | (h[7] << 16);
        }
    }
    return v;
}

template <bool VEC>
__device__ __forceinline__ void linear_gelu_tile(const __half* __restrict__ x, const __half* __restrict__ w,
                                                 const __half* __restrict__ bias, __half* __restrict__ out,
                                                 int M, int N, int K) {
    __shared__ __align__(128) unsigned short smem[2 * TILE_HALVES];  // two buffers: 40960 bytes

    const int tid = threadIdx.x;
    const int warp = tid >> 5;
    const int lane = tid & 31;
    const int warp_m = warp / WARPS_N;  // 0..1
    const int warp_n = warp % WARPS_N;  // 0..3
    const int bm = blockIdx.y * BM;
    const int bn = blockIdx.x * BN;
    const unsigned short* __restrict__ xs = reinterpret_cast<const unsigned short*>(x);
    const unsigned short* __restrict__ ws = reinterpret_cast<const unsigned short*>(w);

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[FRAG_M][FRAG_N];
#pragma unroll
    for (int i = 0; i < FRAG_M; ++i) {
#pragma unroll
        for (int j = 0; j < FRAG_N; ++j) {
            wmma::fill_fragment(acc[i][j], 0.0f);
        }
    }

    // chunk c of a tile (c = tid + i * THREADS): row c / CHUNKS_PER_ROW (0..127),
    // halves (c % CHUNKS_PER_ROW) * 8 .. + 8 of the K step
    uint4 a_reg[CHUNKS_PER_THREAD];
    uint4 b_reg[CHUNKS_PER_THREAD];
    const int k_tiles = (K + BK - 1) / BK;

    // prologue: K step 0 into buffer 0
#pragma unroll
    for (int i = 0; i < CHUNKS_PER_THREAD; ++i) {
        const int c = tid + i * THREADS;
        const int r = c / CHUNKS_PER_ROW;
        const int kc = (c % CHUNKS_PER_ROW) * 8;
        a_reg[i] = load_chunk<VEC>(xs, M, K, bm + r, kc);
        b_reg[i] = load_chunk<VEC>(ws, N, K, bn + r, kc);
        *reinterpret_cast<uint4*>(smem + r * LDS + kc) = a_reg[i];
        *reinterpret_cast<uint4*>(smem + BM * LDS + r * LDS + kc) = b_reg[i];
    }
    __syncthreads();

    for (int kt = 0; kt < k_tiles; ++kt) {
        const int cur = kt & 1;
        const bool has_next = kt + 1 < k_tiles;
        // issue the next step's global loads first; they land while the tensor cores work
        if (has_next) {
            const int k0 = (kt + 1) * BK;
#pragma unroll
            for (int i = 0; i < CHUNKS_PER_THREAD; ++i) {
                const int c = tid + i * THREADS;
                const int r = c / CHUNKS_PER_ROW;
                const int kc = (c % CHUNKS_PER_ROW) * 8;
                a_reg[i] = load_chunk<VEC>(xs, M, K, bm + r, k0 + kc);
                b_reg[i] = load_chunk<VEC>(ws, N, K, bn + r, k0 + kc);
            }
        }

        const __half* As = reinterpret_cast<const __half*>(smem + cur * TILE_HALVES);
        const __half* Bs = As + BM * LDS;
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_frag[FRAG_M];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b_frag[FRAG_N];
#pragma unroll
            for (int i = 0; i < FRAG_M; ++i) {
                // A(m, k) at As[m * LDS + k]: row-major
                wmma::load_matrix_sync(a_frag[i], As + (warp_m * WARP_M + i * 16) * LDS + kk, LDS);
            }
#pragma unroll
            for (int j = 0; j < FRAG_N; ++j) {
                // B(k, n) = W(n, k) at Bs[n * LDS + k]: column-major
                wmma::load_matrix_sync(b_frag[j], Bs + (warp_n * WARP_N + j * 16) * LDS + kk, LDS);
            }
#pragma unroll
            for (int i = 0; i < FRAG_M; ++i) {
#pragma unroll
                for (int j = 0; j < FRAG_N; ++j) {
                    wmma::mma_sync(acc[i][j], a_frag[i], b_frag[j], acc[i][j]);
                }
            }
        }

        if (has_next) {
            // the other buffer: its last readers finished before the previous step's barrier
            unsigned short* next = smem + (cur ^ 1) * TILE_HALVES;
#pragma unroll
            for (int i = 0; i < CHUNKS_PER_THREAD; ++i) {
                const int c = tid + i * THREADS;
                const int r = c / CHUNKS_PER_ROW;
                const int kc = (c % CHUNKS_PER_ROW) * 8;
                *reinterpret_cast<uint4*>(next + r * LDS + kc) = a_reg[i];
                *reinterpret_cast<uint4*>(next + BM * LDS + r * LDS + kc) = b_reg[i];
            }
        }
        __syncthreads();
    }

    // epilogue: the loop ended on a barrier, so the buffers are free; 16 x 16 floats (1 KiB) per warp
    float* stage = reinterpret_cast<float*>(smem) + warp * 256;
#pragma unroll
    for (int i = 0; i < FRAG_M; ++i) {
#pragma unroll
        for (int j = 0; j < FRAG_N; ++j) {
            wmma::store_matrix_sync(stage, acc[i][j], 16, wmma::mem_row_major);
            __syncwarp();
            const int row0 = bm + warp_m * WARP_M + i * 16;
            const int col0 = bn + warp_n * WARP_N + j * 16;
#pragma unroll
            for (int e = lane; e < 256; e += 32) {
                const int gm = row0 + (e >> 4);
                const int gn = col0 + (e & 15);
                if (gm < M && gn < N) {
                    const float y = stage[e] + __half2float(bias[gn]);
                    out[(long long)gm * N + gn] = __float2half_rn(gelu_tanh(y));
                }
            }
            __syncwarp();  // every lane has read the stage before the next fragment overwrites it
        }
    }
}

extern "C" __global__ void __launch_bounds__(THREADS)
linear_gelu_wmma_vec(const __half* __restrict__ x, const __half* __restrict__ w, const __half* __restrict__ bias,
                     __half* __restrict__ out, int M, int N, int K) {
    linear_gelu_tile<true>(x, w, bias, out, M, N, K);
}

extern "C" __global__ void __launch_bounds__(THREADS)
linear_gelu_wmma_scalar(const __half* __restrict__ x, const __half* __restrict__ w, const __half* __restrict__ bias,
                        __half* __restrict__ out, int M, int N, int K) {
    linear_gelu_tile<false>(x, w, bias, out, M, N, K);
}
"""

_module = cp.RawModule(code=CUDA_SRC, options=("--std=c++17",))

BM, BN, THREADS = 128, 128, 256  # must match CUDA_SRC


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        # held for its parameters only (linear.weight (N, K), linear.bias (N,)), which the
        # evaluator fills from the reference; forward never calls it
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        w = self.linear.weight.contiguous()
        b = self.linear.bias.contiguous()
        M, K = x.shape
        N = w.shape[0]
        out = torch.empty((M, N), device=x.device, dtype=torch.float16)
        # 16-byte copies only when every 8-half chunk of a row is aligned and wholly in or out of the row
        vec = K % 8 == 0 and x.data_ptr() % 16 == 0 and w.data_ptr() % 16 == 0
        kernel = _module.get_function("linear_gelu_wmma_vec" if vec else "linear_gelu_wmma_scalar")
        grid = ((N + BN - 1) // BN, (M + BM - 1) // BM)
        with cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            kernel(
                grid,
                (THREADS,),
                (x.data_ptr(), w.data_ptr(), b.data_ptr(), out.data_ptr(), cp.int32(M), cp.int32(N), cp.int32(K)),
            )
        return out
