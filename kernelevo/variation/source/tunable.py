"""A tunable literal of a kernel's source, the literals linked to it, and the values it may take."""

from __future__ import annotations

import functools
from dataclasses import dataclass

WARPS = (1, 2, 4, 8, 16, 32)
STAGES = (1, 2, 3, 4, 5, 6)
UNROLLS = (1, 2, 4, 8, 16, 32)
# A tile declared in a kernel's body (inductor's templates): a tl.dot needs 16 at least, a TMA box takes 256 at most.
KERNEL_TILES = (16, 32, 64, 128, 256)
TILE_GROUPS = (1, 2, 4, 8, 16, 32, 64)  # tiles of M one program group takes in turn (GROUP_M)
# Block sizes beyond this fit no GPU's registers well and cost minutes to compile.
MAX_BLOCK = 1 << 14
# CUDA contexts whose values are sizes: a non-power-of-two moves by its largest power-of-two factor (up to a
# warp), so that 96 threads become 64 or 128, never 95.
STEPPED = frozenset({"define", "constexpr", "template", "block"})


@dataclass(frozen=True)
class Link:
    """Another literal that moves with a tunable, written as ``ceil(value * num / den) + add``.

    ``add=-1`` is the ``255`` of ``(n + 255) // 256``; ``den=32`` a per-warp array of a block.
    """

    line: int  # 1-based
    col: int  # UTF-8 byte offsets, like the AST's
    end_col: int
    num: int = 1
    den: int = 1
    add: int = 0

    def text(self, value: int) -> str:
        return str(-(-value * self.num // self.den) + self.add)


@dataclass(frozen=True)
class Tunable:
    """One literal in the source that can be changed: where it is and what it may become."""

    name: str
    value: int
    line: int  # 1-based
    col: int
    end_col: int
    # Triton: "launch", "config", "constant", "kernel_tile"...; CUDA: kernelevo.variation.source.template_cuda
    context: str
    ordinal: int = 0  # the how-manieth tunable of this context and name, in source order
    links: tuple[Link, ...] = ()  # literals that must agree with this one, rewritten with it

    @property
    def key(self) -> str:
        """Identifies the tunable across kernels of the same family (not by position)."""
        return f"{self.context}:{self.name}#{self.ordinal}"

    def choices(self) -> tuple[int, ...]:
        return _choices(self.name, self.context, self.value)

    def neighbours(self, steps: int = 1) -> list[int]:
        """Values at most ``steps`` positions away along :meth:`choices`."""
        return list(_neighbours(self.name, self.context, self.value, steps))


# Both are asked for on every draw of the template operator, hundreds a second on a busy driver, and
# depend on these three fields alone.
@functools.lru_cache(maxsize=4096)
def _choices(name: str, context: str, v: int) -> tuple[int, ...]:
    if name == "num_warps":
        return WARPS
    if name == "num_stages":
        return STAGES
    if context == "unroll":
        return UNROLLS
    if context == "kernel_tile":
        return TILE_GROUPS if name.startswith("GROUP") else KERNEL_TILES
    if _power_of_two(v):
        high = max(MAX_BLOCK, v)
        return tuple(1 << k for k in range(31) if 1 << k <= high)
    if context in STEPPED:
        step = min(v & -v, 32)
        return tuple(sorted({max(step, v - step), v, v + step, v * 2}))
    # a non-power-of-two integer (a split count, a group size): nearby values on both sides
    return tuple(sorted({max(1, v // 2), max(1, v - 1), v, v + 1, v * 2}))


@functools.lru_cache(maxsize=4096)
def _neighbours(name: str, context: str, value: int, steps: int) -> tuple[int, ...]:
    options = _choices(name, context, value)
    if value not in options:
        return tuple(v for v in options if v != value)[:2]
    i = options.index(value)
    return tuple(options[j] for j in range(i - steps, i + steps + 1) if 0 <= j < len(options) and j != i)


def _power_of_two(v: int) -> bool:
    return v > 0 and v & (v - 1) == 0
