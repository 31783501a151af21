"""Triton mutants that cannot run, or could only spill, found before anyone compiles them.

A matmul's tiles are staged through shared memory: Triton's software pipeline keeps
``num_stages`` copies of an ``BLOCK_M x BLOCK_K`` and a ``BLOCK_K x BLOCK_N`` tile. Where that
exceeds what one block may have, Triton fails at compile time with "out of resource: shared
memory". The count uses 2-byte elements, the smallest a ``tl.dot`` takes, so a mutant is only
dropped when it cannot fit whatever its dtype.

Its ``BLOCK_M x BLOCK_N`` accumulator lives in the registers of the block's ``32 * num_warps``
threads. Where each thread's share is more than a thread's registers, the accumulator spills to
local memory, and ptxas takes tens of seconds over it: on an H100 host, 43 s to precompile a 128 x 256
tile on one warp, where the same run's elites took 1.7 to 3.6 s. Such a mutant is dropped as well.
"""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass

from kernelevo.utils.pyast import launched_kernel
from kernelevo.variation.template_triton import HostReader, int_value, is_int_literal, kernel_tiles

SHARED_LIMIT = 232_448  # bytes per block on sm_90 (H100, H200): Triton's own "Hardware limit"
DEFAULT_STAGES = 3  # Triton's num_stages where a launch or config names none
DEFAULT_WARPS = 4  # Triton's num_warps where a launch or config names none
THREAD_REGISTERS = 255  # the most 32-bit registers one thread may have (every NVIDIA GPU since Kepler)
TILE = re.compile(r"^(?:BLOCK|TILE|BLK|B)_?(?:SIZE_?)?([MNK])$")
K_TILE = re.compile(r"\b(?:BLOCK|TILE|BLK|B)_?(?:SIZE_?)?K\b")


Position = tuple[int, int]  # a literal's (line, column), as the template operator's edits name it


@dataclass(frozen=True)
class Staging:
    """One launch or ``triton.Config`` that names a matmul's tiles: where each of its values is written."""

    line: int
    literals: tuple[tuple[str, Position, int], ...]  # (keyword, position of the literal it reads, value)


@functools.lru_cache(maxsize=1024)  # read once per parent; its mutants are judged without a parse
def stagings(source: str) -> tuple[Staging, ...]:
    """The launches and configs of ``source`` with M, N and K tiles."""
    if not K_TILE.search(source):
        return ()  # no K tile, no matmul staging to count
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return ()  # not ours to judge: the evaluator names a syntax error
    reader = HostReader(tree)
    reader.read_assignments()
    # tiles inductor's templates declare in the kernel's body: staged as the launch's stages say
    body_tiles = {k.name: list(kernel_tiles(k).items()) for k in reader.jit}
    found = []
    for node in reader.host_nodes:
        if not isinstance(node, ast.Call):
            continue
        literals: list[tuple[str, ast.expr]] = []
        if isinstance(node.func, ast.Subscript):  # a launch: literals, or the names they read
            for kw in node.keywords:
                resolved = reader.resolve(kw.value, node) if kw.arg else None
                if resolved is not None:
                    literals.append((str(kw.arg), resolved[0]))
            literals += body_tiles.get(launched_kernel(node) or "", [])
        elif ast.unparse(node.func).endswith("Config"):
            literals = [(kw.arg, kw.value) for kw in node.keywords if kw.arg and is_int_literal(kw.value)]
            if node.args and isinstance(node.args[0], ast.Dict):
                literals += [(str(k.value), v) for k, v in zip(node.args[0].keys, node.args[0].values, strict=True)
                             if isinstance(k, ast.Constant) and isinstance(k.value, str) and is_int_literal(v)]
        named = [(name, (literal.lineno, literal.col_offset), int_value(literal)) for name, literal in literals
                 if TILE.match(name) or name in ("num_stages", "num_warps")]
        if {m.group(1) for name, _, _ in named if (m := TILE.match(name))} == {"M", "N", "K"}:
            found.append(Staging(node.lineno, tuple(named)))
    return tuple(found)


def problems(source: str, edits: dict[Position, int] | None = None) -> list[str]:
    """Why ``source``, with the literals at ``edits`` rewritten to their new values, cannot run or would spill
    its accumulator: one line per launch or config; empty when it may run."""
    found = []
    for staging in stagings(source):
        values = {name: (edits or {}).get(at, value) for name, at, value in staging.literals}
        found += [f"line {staging.line}: {problem}" for problem in (_shared_memory(values), _accumulator(values))
                  if problem]
    return found


def _tiles(values: dict[str, int]) -> dict[str, int]:
    """The M, N and K tile sizes among a launch's or config's values, by axis."""
    return {match.group(1): value for name, value in values.items() if (match := TILE.match(name))}


def _shared_memory(values: dict[str, int]) -> str | None:
    tiles = _tiles(values)
    if set(tiles) != {"M", "N", "K"}:
        return None
    stages = values.get("num_stages", DEFAULT_STAGES)
    need = stages * (tiles["M"] * tiles["K"] + tiles["K"] * tiles["N"]) * 2
    if need <= SHARED_LIMIT:
        return None
    return (f"{stages} stages of {tiles['M']}x{tiles['K']} and {tiles['K']}x{tiles['N']} tiles need at least "
            f"{need // 1024} KiB of shared memory; a block may have {SHARED_LIMIT // 1024} KiB")


def _accumulator(values: dict[str, int]) -> str | None:
    tiles = _tiles(values)
    if not {"M", "N"} <= set(tiles):
        return None
    warps = values.get("num_warps", DEFAULT_WARPS)
    per_thread = tiles["M"] * tiles["N"] // (32 * warps)
    if per_thread <= THREAD_REGISTERS:
        return None
    return (f"a {tiles['M']}x{tiles['N']} accumulator over {warps} warp{'s' if warps > 1 else ''} is {per_thread} "
            f"values a thread; a thread has at most {THREAD_REGISTERS} registers (it would spill)")
