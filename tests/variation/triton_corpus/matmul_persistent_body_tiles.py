"""fp16 linear + bias + tanh-GELU, persistent over tiles; style: tiles declared in the body, as inductor writes.

Spec: examples/matmul_epilogue/spec.py

Inductor writes the configuration it chose into its template kernels' bodies
(``BLOCK_M: tl.constexpr = 64``), not at the launch. This kernel is launched on a fixed
number of programs (NUM_PROGRAMS, the grid's literal) and each walks the tiles
``tile, tile + NUM_PROGRAMS, ...`` until none is left, so its tiles can change without its
grid: the template operator tunes BLOCK_M, BLOCK_N, BLOCK_K and GROUP_M in the body, and
leaves NUM_PROGRAMS (which must agree with the grid) alone. Every edge is masked.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_gelu_persistent(x_ptr, w_ptr, b_ptr, out_ptr, M, N, K):
    BLOCK_M: tl.constexpr = 32
    BLOCK_N: tl.constexpr = 32
    BLOCK_K: tl.constexpr = 32
    GROUP_M: tl.constexpr = 4
    NUM_PROGRAMS: tl.constexpr = 4
    grid_m = tl.cdiv(M, BLOCK_M)
    grid_n = tl.cdiv(N, BLOCK_N)
    width = GROUP_M * grid_n
    for tile in tl.range(tl.program_id(0), grid_m * grid_n, NUM_PROGRAMS):
        group_id = tile // width
        group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
        pid_m = group_id * GROUP_M + tile % group_size
        pid_n = tile % width // group_size
        offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        offs_k = tl.arange(0, BLOCK_K)
        acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        for k0 in range(0, K, BLOCK_K):
            k = k0 + offs_k
            a = tl.load(x_ptr + offs_m[:, None] * K + k[None, :], mask=(offs_m[:, None] < M) & (k[None, :] < K),
                        other=0.0)
            # W is (N, K): its transpose is read in place
            b = tl.load(w_ptr + offs_n[None, :] * K + k[:, None], mask=(offs_n[None, :] < N) & (k[:, None] < K),
                        other=0.0)
            acc = tl.dot(a, b, acc)
        y = acc + tl.load(b_ptr + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)[None, :]
        inner = 0.7978845608028654 * (y + 0.044715 * y * y * y)
        y = 0.5 * y * (1.0 + (2.0 * tl.sigmoid(2.0 * inner) - 1.0))
        mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
        tl.store(out_ptr + offs_m[:, None] * N + offs_n[None, :], y.to(tl.float16), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        # held for its parameters only, which the evaluator fills from the reference
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        M, K = x.shape
        w, b = self.linear.weight, self.linear.bias
        N = w.shape[0]
        out = torch.empty((M, N), device=x.device, dtype=torch.float16)
        linear_gelu_persistent[(4, 1, 1)](x, w, b, out, M, N, K, num_warps=4, num_stages=3)
        return out
