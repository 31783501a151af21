"""Compute level 2: an online algorithm (softmax with a running max and rescaled sum)."""
import triton
import triton.language as tl


@triton.jit
def online_softmax(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    d = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * N + offs, mask=offs < N, other=float("-inf"))
        m_new = tl.maximum(m, x)
        d = d * tl.exp(m - m_new) + tl.exp(x - m_new)
        m = m_new
    row_max = tl.max(m, axis=0)
    denom = tl.sum(d * tl.exp(m - row_max), axis=0)
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * N + offs, mask=offs < N, other=float("-inf"))
        tl.store(out_ptr + row * N + offs, tl.exp(x - row_max) / denom, mask=offs < N)
