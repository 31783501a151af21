"""Memory level 1: coalesced block loads from tl.arange offsets."""
import triton
import triton.language as tl


@triton.jit
def relu_block(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=offs < n)
