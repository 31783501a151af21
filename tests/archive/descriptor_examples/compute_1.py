"""Compute level 1: fused, one kernel does the whole operator in one pass."""
import triton
import triton.language as tl


@triton.jit
def bias_relu(x_ptr, b_ptr, out_ptr, n, C, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    b = tl.load(b_ptr + offs % C, mask=offs < n)
    tl.store(out_ptr + offs, tl.maximum(x + b, 0.0), mask=offs < n)
