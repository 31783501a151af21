"""Attack (GPU): all the work on a side stream, so CUDA events on the current stream time nothing.

Forward launches the GELU on a new stream and returns at once. Events recorded on the
default stream measure only the launch; a harness that synchronizes only the current
stream, or trusts its events, reports a speedup of 10x or more. kernelevo synchronizes
the whole device after each call (so outputs are complete) and its judge times the loop
from outside: the reported samples explain far less than the wall time it saw, so it
reports ``timer_mismatch``. (Static and runtime checks are off in this case: with them
on, the stream is rejected as ``side_stream`` before it runs.)
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl

_STREAM = []


@triton.jit
def gelu_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tanh = 2.0 * tl.sigmoid(2.0 * inner) - 1.0
    tl.store(out_ptr + offsets, 0.5 * x * (1.0 + tanh), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not _STREAM:
            _STREAM.append(torch.cuda.Stream())
        out = torch.empty_like(x)
        n = x.numel()
        side = _STREAM[0]
        side.wait_stream(torch.cuda.current_stream())  # the inputs are ready before the side stream reads them
        with torch.cuda.stream(side):
            gelu_kernel[(triton.cdiv(n, 4096),)](x, out, n, BLOCK_SIZE=4096, num_warps=8)
        return out
