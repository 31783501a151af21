"""kernelevo 0.1.0: best kernel for spec 'gelu'
spec sha256: 7e043505daf689373a0572defa38af13c223ccfe4185b49d1f0296bffb7b42a2
hardware: h200
exported: 2026-11-22T02:54:39+00:00
measured on: NVIDIA H200 (vm); torch 2.11.0+cu130, triton 3.6.0, python 3.12.3, CUDA 13.0
timings: median 0.2701 ms (IQR 0.0098), 0.96x eager, 1.15x torch.compile, 99% of roofline
variants checked: small, odd, default
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    # gelu(x) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), with tanh(u) = 2 sigmoid(2u) - 1
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tanh = 2.0 * tl.sigmoid(2.0 * inner) - 1.0
    tl.store(out_ptr + offsets, 0.5 * x * (1.0 + tanh), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        # the grid reads the block size from the launch's meta-parameters, so tuning one tunes both
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)  # noqa: E731
        gelu_kernel[grid](x, out, n, BLOCK_SIZE=1024, num_warps=8)
        return out
