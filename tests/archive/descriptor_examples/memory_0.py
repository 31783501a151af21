"""Memory level 0: naive indexing, one scalar load per program."""
import triton
import triton.language as tl


@triton.jit
def relu_scalar(x_ptr, out_ptr):
    i = tl.program_id(0)
    x = tl.load(x_ptr + i)
    tl.store(out_ptr + i, tl.maximum(x, 0.0))
