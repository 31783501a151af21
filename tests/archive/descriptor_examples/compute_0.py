"""Compute level 0: several passes (a kernel that reads its input twice)."""
import triton
import triton.language as tl


@triton.jit
def normalize_two_pass(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    total = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        total += tl.load(x_ptr + row * N + offs, mask=offs < N, other=0.0)
    s = tl.sum(total, axis=0)
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * N + offs, mask=offs < N, other=0.0)
        tl.store(out_ptr + row * N + offs, x / s, mask=offs < N)
