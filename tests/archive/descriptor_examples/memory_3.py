"""Memory level 3: a software-pipelined loop (tl.range with num_stages)."""
import triton
import triton.language as tl


@triton.jit
def row_sum(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in tl.range(0, N, BLOCK, num_stages=3):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * N + offs, mask=offs < N, other=0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))
