"""kernelevo 0.1.0: best kernel for spec 'softmax'
spec sha256: 4bfeb8069154618e02f01412fd51b79088f6c6325a39841bd6f2d962069e56d5
hardware: h100
exported: 2026-11-23T09:26:26+00:00
measured on: NVIDIA H100 80GB HBM3 (vm); torch 2.11.0+cu130, triton 3.6.0, python 3.12.3, CUDA 13.0
timings: median 0.3548 ms (IQR 0.0012), 1.61x eager, 1.00x torch.compile, 100% of roofline
variants checked: small, odd, default
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, x_row_stride, out_row_stride, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    # -inf in the padding: it never wins the max, and exp(-inf - max) = 0 adds nothing to the sum
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf"))
    # subtract the row max so exp never overflows (softmax is invariant to the shift)
    z = x - tl.max(x, axis=0)
    num = tl.exp(z)
    den = tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_row_stride + cols, num / den, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n_rows, n_cols = x.shape
        out = torch.empty_like(x)
        # the whole row in one block: 8192 columns at the default size, 1024 and 2048 for the small ones
        BLOCK_SIZE = triton.next_power_of_2(n_cols)
        softmax_kernel[(n_rows,)](
            x, out, n_cols, x.stride(0), out.stride(0), BLOCK_SIZE=BLOCK_SIZE, num_warps=32
        )
        return out
