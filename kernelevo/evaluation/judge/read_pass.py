"""A read-only pass over a buffer, the fastest found: what the read bandwidth of the roofline is measured with.

Each program sums ``BLOCK * TILES`` contiguous floats (32 KiB) and writes one float, so the
pass writes 1 byte for every 8,192 it reads. On an H100 (2026-11-26) it read at 1.046 times
the copy bandwidth; PyTorch's own reductions read at 1.013 to 1.017 times (``sum``, ``amax``,
``vector_norm`` over the whole buffer, ``sum`` over rows of 4,096), as did this kernel with
longer programs (16 or 64 tiles: 1.024 to 1.033). A floor measured with a slower pass would let
good reductions pass 100%.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

BLOCK = 2048  # floats a program loads at once: 8 KiB, 32 per thread of 8 warps
TILES = 4  # blocks a program reads: more programs and a shorter tail beat longer programs


@triton.jit
def _sum_tiles(x_ptr, out_ptr, BLOCK: tl.constexpr, TILES: tl.constexpr):
    program = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for tile in range(TILES):  # no masks: the buffer is a whole number of programs' share
        acc += tl.load(x_ptr + (program * TILES + tile) * BLOCK + tl.arange(0, BLOCK))
    tl.store(out_ptr + program, tl.sum(acc, axis=0))


def read_pass(x: torch.Tensor, out: torch.Tensor) -> None:
    """Read all of ``x`` (contiguous fp32, a multiple of :func:`chunk` floats, under 2**31 of them) once."""
    _sum_tiles[(x.numel() // chunk(),)](x, out, BLOCK=BLOCK, TILES=TILES, num_warps=8)


def chunk() -> int:
    """Floats one program reads."""
    return BLOCK * TILES
