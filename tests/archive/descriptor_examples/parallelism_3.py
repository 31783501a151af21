"""Parallelism level 3: autotuned variants."""
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 1024}, num_warps=4), triton.Config({"BLOCK": 4096}, num_warps=8)],
                 key=["n"])
@triton.jit
def relu_tuned(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=offs < n)
