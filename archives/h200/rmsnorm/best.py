"""kernelevo 0.1.0: best kernel for spec 'rmsnorm'
spec sha256: c3d645c6b1a4af7b8b843c5d889ea26c522d2d895668f6e856d4963554d81579
hardware: h200
exported: 2026-11-22T02:57:56+00:00
measured on: NVIDIA H200 (vm); torch 2.11.0+cu130, triton 3.6.0, python 3.12.3, CUDA 13.0
timings: median 0.2969 ms (IQR 0.0085), 4.21x eager, 1.09x torch.compile, 88% of roofline
variants checked: small, odd, default
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rmsnorm_single_pass_kernel(
    x_ptr, w_ptr, out_ptr, C, HW, eps,
    BLOCK_C: tl.constexpr, BLOCK_HW: tl.constexpr,
):
    pid_hw = tl.program_id(axis=0)
    b = tl.program_id(axis=1)
    hw = pid_hw * BLOCK_HW + tl.arange(0, BLOCK_HW)
    c = tl.arange(0, BLOCK_C)
    c_mask = c < C
    mask = c_mask[:, None] & (hw < HW)[None, :]
    # int64 base: B*C*H*W can pass 2**31 elements at larger sizes
    offs = b.to(tl.int64) * C * HW + c[:, None] * HW + hw[None, :]

    # the one read of x: every channel of BLOCK_HW positions; padded channels load 0 and add nothing
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    w = tl.load(w_ptr + c, mask=c_mask, other=0.0)
    mean_sq = tl.sum(x * x, axis=0) / C
    # one reciprocal square root per position, then multiplies only
    inv_rms = tl.rsqrt(mean_sq + eps)
    tl.store(out_ptr + offs, x * inv_rms[None, :] * w[:, None], mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        # same name and shape as the reference's, so the evaluator copies its values in
        self.weight = nn.Parameter(torch.ones(num_features))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        B, C, H, W = x.shape
        HW = H * W
        out = torch.empty_like(x)
        # the whole channel axis in one tile: 128 at the default size, 16 and 8 for the small ones
        BLOCK_C = triton.next_power_of_2(C)
        grid = lambda meta: (triton.cdiv(HW, meta["BLOCK_HW"]), B)  # noqa: E731
        rmsnorm_single_pass_kernel[grid](
            x, self.weight, out, C, HW, self.eps, BLOCK_C=BLOCK_C, BLOCK_HW=64, num_warps=16
        )
        return out
