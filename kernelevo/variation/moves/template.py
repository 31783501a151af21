"""The template operator: tunes a kernel's parameters without an LLM.

Triton candidates are read by :mod:`kernelevo.variation.source.template_triton`: launch keywords
(``BLOCK_SIZE=1024, num_warps=4``) and the names they read (``NCH, BLOCK = 256, 1024``, keyword
defaults, module constants, ``self.block``), ``triton.Config`` lists and heuristics, with the
grid's literals that must agree with a block size (``triton.cdiv(n, 1024)``) moved with it.
Mutants whose tiles cannot fit the GPU's shared memory are dropped
(:mod:`kernelevo.variation.source.triton_limits`).

A mutation moves one or two of them to a neighbouring legal value (powers of two for
block sizes, 1..32 warps, 1..6 stages); a sweep lists every single-step neighbour; a
crossover takes the values of a second kernel with the same tunables. Edits are spliced
into the source text at the literal's position, so comments and layout survive.

CUDA C++ candidates (CuPy ``RawModule`` or ``load_inline``) are read by
:mod:`kernelevo.variation.source.template_cuda`: ``#define`` / ``constexpr`` sizes, template
arguments, block dimensions and unroll factors, each with the literals that must agree with
it (a ``__launch_bounds__``, the grid's ceiling division, a shared array's size), rewritten
together. Their mutants that break the hardware's limits are dropped
(:mod:`kernelevo.variation.source.cuda_limits`).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import zlib

from kernelevo.utils.cuda_source import is_cuda_source
from kernelevo.variation.source import cuda_limits, template_cuda, template_triton, triton_limits
from kernelevo.variation.source.tunable import MAX_BLOCK, STAGES, UNROLLS, WARPS, Link, Tunable

__all__ = ["JUMP_STEPS", "MAX_BLOCK", "STAGES", "UNROLLS", "WARPS", "Link", "Tunable", "apply", "crossover",
           "describe", "find_tunables", "mutate", "share_of", "space", "sweep"]

JUMP_STEPS = 3  # the farthest a jump moves a parameter along its choices
TRIES = 20  # draws a mutation gets to find a mutant within the hardware's limits


@functools.lru_cache(maxsize=1024)  # asked once per public call on the same source
def _is_cuda(source: str) -> bool:
    return is_cuda_source(source)


def _mutant(source: str, changes: dict[Tunable, int], cuda: bool) -> str | None:
    """``source`` with ``changes`` applied, or None where the result breaks a limit its language knows
    (threads per block, shared memory). A Triton mutant is judged from its parent's tiles and the
    edits before it is written out: the operator draws many, most of them never used."""
    if cuda:
        mutant = apply(source, changes)
        return None if cuda_limits.problems(mutant) else mutant
    edits = {(t.line, t.col): value for t, value in changes.items()}
    edits |= {(link.line, link.col): int(link.text(value)) for t, value in changes.items() for link in t.links}
    return None if triton_limits.problems(source, edits) else apply(source, changes)


def find_tunables(source: str) -> list[Tunable]:
    """Every tunable literal in ``source``, in source order (CUDA C++ candidates: see template_cuda)."""
    if _is_cuda(source):
        return list(template_cuda.find_tunables(source))
    return list(template_triton.find_tunables(source))


def apply(source: str, changes: dict[Tunable, int]) -> str:
    """``source`` with each tunable's literal, and the literals linked to it, rewritten for its new value."""
    edits = [(t.line, t.col, t.end_col, str(value)) for t, value in changes.items()]
    edits += [(link.line, link.col, link.end_col, link.text(value)) for t, value in changes.items() for link in t.links]
    lines = source.splitlines(keepends=True)
    # right to left within a line, so earlier columns stay valid; ast's columns count UTF-8 bytes
    for line, col, end_col, text in sorted(edits, reverse=True):
        row = lines[line - 1].encode()
        lines[line - 1] = (row[:col] + text.encode() + row[end_col:]).decode()
    return "".join(lines)


def describe(changes: dict[Tunable, int]) -> str:
    return ", ".join(f"{t.name} {t.value} -> {v}" for t, v in changes.items()) or "no change"


def mutate(source: str, rng: random.Random, *, max_changes: int = 2, jump_rate: float = 0.25,
           partition: tuple[int, int] | None = None) -> tuple[str, str] | None:
    """``source`` with one or two parameters moved; None when nothing is tunable.

    Most moves go to a neighbouring value (a local search around the elite); with
    ``jump_rate`` a parameter jumps up to ``JUMP_STEPS`` values away instead, so the
    search does not stall once every neighbour of every elite has been tried.
    ``partition`` ``(share, shares)``: only the moves of that share (:func:`share_of`), so that
    processes varying the same parent make different kernels.
    """
    tunables = _movable(source)
    if not tunables:
        return None
    cuda = _is_cuda(source)
    shares = partition[1] if partition is not None else 1
    for _ in range(TRIES * shares):  # (a move of another share costs a few draws of the generator)
        count = 1 if len(tunables) == 1 or rng.random() < 0.6 else min(max_changes, len(tunables))
        changes = {}
        for t in rng.sample(tunables, count):
            steps = JUMP_STEPS if rng.random() < jump_rate else 1
            changes[t] = rng.choice(t.neighbours(steps))
        if partition is not None and share_of(changes, shares) != partition[0]:
            continue
        new = _mutant(source, changes, cuda)
        if new is not None:
            return new, describe(changes)
    return None


def share_of(changes: dict[Tunable, int], shares: int) -> int:
    """Which of ``shares`` a move belongs to: the same in every process (no salted ``hash``), whatever the
    order its parameters were drawn in."""
    key = ";".join(sorted(f"{t.line}:{t.col}={value}" for t, value in changes.items()))
    return zlib.crc32(key.encode()) % shares


@functools.lru_cache(maxsize=1024)  # the operator draws many mutants of one parent
def _movable(source: str) -> tuple[Tunable, ...]:
    return tuple(t for t in find_tunables(source) if t.neighbours())


def sweep(source: str) -> list[tuple[str, str]]:
    """Every single-step neighbour of ``source`` within the hardware's limits: (new source, what changed)."""
    out, cuda = [], _is_cuda(source)
    for t in find_tunables(source):
        for value in t.neighbours():
            change = {t: value}
            new = _mutant(source, change, cuda)
            if new is not None:
                out.append((new, describe(change)))
    return out


def space(source: str, steps: int = JUMP_STEPS, limit: int = 5000) -> list[tuple[str, str]]:
    """Every combination of the tunables' values within ``steps`` of their own (each keeping its own
    value too), within the hardware's limits, ``source`` itself left out: the ground truth a search's
    best is measured against (benchmarks/template_sweep.py). :class:`ValueError` past ``limit``."""
    tunables = _movable(source)
    options = [[t.value, *t.neighbours(steps)] for t in tunables]
    total = math.prod(len(o) for o in options) if tunables else 0
    if total > limit:
        raise ValueError(f"{total} combinations of {len(tunables)} tunables (the limit is {limit})")
    out, seen, cuda = [], {source}, _is_cuda(source)
    for values in itertools.product(*options):
        changes = {t: v for t, v in zip(tunables, values, strict=True) if v != t.value}
        new = _mutant(source, changes, cuda) if changes else None
        if new is not None and new not in seen:
            seen.add(new)
            out.append((new, describe(changes)))
    return out


def crossover(source: str, donor: str, rng: random.Random) -> tuple[str, str] | None:
    """``source`` with a random subset of its parameters taken from ``donor`` (same tunables only)."""
    mine = find_tunables(source)
    theirs = {t.key: t for t in find_tunables(donor)}
    if not mine or {t.key for t in mine} != set(theirs):
        return None
    differing = [t for t in mine if theirs[t.key].value != t.value]
    if not differing:
        return None
    cuda = _is_cuda(source)
    for _ in range(TRIES):
        picked = rng.sample(differing, rng.randint(1, len(differing)))
        changes = {t: theirs[t.key].value for t in picked}
        new = _mutant(source, changes, cuda)
        if new is not None:
            return new, "crossover: " + describe(changes)
    return None
