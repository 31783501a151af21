"""Parallelism level 2: persistent programs striding over blocks by tl.num_programs."""
import triton
import triton.language as tl


@triton.jit
def relu_persistent(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    num_blocks = tl.cdiv(n, BLOCK)
    for block in range(tl.program_id(0), num_blocks, tl.num_programs(0)):
        offs = block * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n)
        tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=offs < n)
