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

The same holds for any block-shaped tensor a kernel fills with ``tl.full`` or ``tl.zeros`` and keeps:
inductor's looped reductions carry an ``XBLOCK x R0_BLOCK`` accumulator through their loop. On an H100
host, two of ``sum_dim1``'s reductions with ``XBLOCK`` 512 took 113 and 115 s to precompile and one with
1024 ran past the compile limit. Their ``R0_BLOCK``, equal to ``XBLOCK`` since inductor's launch, moved
with it: a 512 x 512 accumulator is 256 values a thread even on 32 warps, Triton's most. That 3-minute
search judged 99 candidates, where the run before judged 306.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from kernelevo.utils.pyast import launched_kernel
from kernelevo.variation.source.template_triton import HostReader, int_value, is_int_literal, kernel_tiles

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


@functools.lru_cache(maxsize=256)  # a parent's parse, about 200 KiB each: 256 parents hold about 50 MB
def _read(source: str) -> tuple[HostReader, dict[str, list[tuple[str, ast.Constant]]]] | None:
    """``source`` read once for both rules: its host code (assignments read) and the tiles each kernel declares
    in its body (inductor's templates: staged as the launch's stages say); None where it does not parse (not
    ours to judge: the evaluator names a syntax error)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    reader = HostReader(tree)
    reader.read_assignments()
    return reader, {k.name: list(kernel_tiles(k).items()) for k in reader.jit}


def _launch_literals(reader: HostReader, body_tiles: dict[str, list[tuple[str, ast.Constant]]],
                     launch: ast.Call) -> list[tuple[str, ast.Constant]]:
    """A launch's keywords with the literals they are or read through names, then its kernel's body tiles."""
    literals = [(str(kw.arg), resolved[0]) for kw in launch.keywords
                if kw.arg and (resolved := reader.resolve(kw.value, launch)) is not None]
    return literals + body_tiles.get(launched_kernel(launch) or "", [])


def _positioned(literals: Sequence[tuple[str, ast.expr]]) -> tuple[tuple[str, Position, int], ...]:
    return tuple((name, (literal.lineno, literal.col_offset), int_value(literal)) for name, literal in literals)


@functools.lru_cache(maxsize=1024)  # read once per parent; its mutants are judged without a parse
def stagings(source: str) -> tuple[Staging, ...]:
    """The launches and configs of ``source`` with M, N and K tiles."""
    if not K_TILE.search(source) or (read := _read(source)) is None:
        return ()  # no K tile, no matmul staging to count
    reader, body_tiles = read
    found = []
    for node in reader.host_nodes:
        if not isinstance(node, ast.Call):
            continue
        literals: list[tuple[str, ast.expr]] = []
        if isinstance(node.func, ast.Subscript):  # a launch: literals, or the names they read
            literals += _launch_literals(reader, body_tiles, node)
        elif ast.unparse(node.func).endswith("Config"):
            literals = [(kw.arg, kw.value) for kw in node.keywords if kw.arg and is_int_literal(kw.value)]
            if node.args and isinstance(node.args[0], ast.Dict):
                literals += [(str(k.value), v) for k, v in zip(node.args[0].keys, node.args[0].values, strict=True)
                             if isinstance(k, ast.Constant) and isinstance(k.value, str) and is_int_literal(v)]
        named = _positioned([(name, literal) for name, literal in literals
                             if TILE.match(name) or name in ("num_stages", "num_warps")])
        if {m.group(1) for name, _, _ in named if (m := TILE.match(name))} == {"M", "N", "K"}:
            found.append(Staging(node.lineno, named))
    return tuple(found)


Shape = tuple[str | int, ...]  # a block tensor's dimensions: constexpr names or literals


@dataclass(frozen=True)
class Accumulating:
    """One launch of a kernel that fills block-shaped tensors: the values its keywords give their dimensions."""

    line: int
    kernel: str
    shapes: tuple[Shape, ...]
    literals: tuple[tuple[str, Position, int], ...]  # (keyword, position of the literal it reads, value)


def _block_shapes(kernel: ast.FunctionDef) -> tuple[Shape, ...]:
    """The shapes of the block tensors ``kernel`` makes with ``tl.full`` or ``tl.zeros`` (two dimensions or
    more, each a name or an int literal), less a matmul's ``BLOCK_M x BLOCK_N`` (counted with its stages)."""
    found = []
    for node in ast.walk(kernel):
        if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.List | ast.Tuple)
                and ast.unparse(node.func).split(".")[-1] in ("full", "zeros")):
            continue
        shape: Shape = tuple(d.id if isinstance(d, ast.Name) else int_value(d) if is_int_literal(d) else ""
                             for d in node.args[0].elts)
        names = [d for d in shape if isinstance(d, str)]
        if len(shape) >= 2 and "" not in shape and names and not all(TILE.match(n) for n in names):
            found.append(shape)
    return tuple(found)


def _elements(shape: Shape, values: dict[str, int]) -> int | None:
    """How many values a block tensor of ``shape`` holds; None where a dimension's value is unknown."""
    count = 1
    for dim in shape:
        value = dim if isinstance(dim, int) else values.get(dim)
        if value is None:
            return None
        count *= value
    return count


@functools.lru_cache(maxsize=1024)
def accumulatings(source: str) -> tuple[Accumulating, ...]:
    """The launches of ``source``'s kernels that fill block tensors, with the literals their dimensions read."""
    if ("tl.full" not in source and "tl.zeros" not in source) or (read := _read(source)) is None:
        return ()
    reader, body_tiles = read
    shapes = {k.name: s for k in reader.jit if (s := _block_shapes(k))}
    launches = [(node, kernel) for node in reader.host_nodes
                if isinstance(node, ast.Call) and (kernel := launched_kernel(node)) in shapes]
    return tuple(Accumulating(node.lineno, kernel, shapes[kernel],
                              _positioned(_launch_literals(reader, body_tiles, node))) for node, kernel in launches)


def problems(source: str, edits: dict[Position, int] | None = None) -> list[str]:
    """Why ``source``, with the literals at ``edits`` rewritten to their new values, cannot run or would spill
    its accumulator: one line per launch or config; empty when it may run."""
    found = []
    for staging in stagings(source):
        values = {name: (edits or {}).get(at, value) for name, at, value in staging.literals}
        found += [f"line {staging.line}: {problem}" for problem in (_shared_memory(values), _accumulator(values))
                  if problem]
    for launch in accumulatings(source):
        values = {name: (edits or {}).get(at, value) for name, at, value in launch.literals}
        problem = spilled_block(launch.shapes, values, values.get("num_warps", DEFAULT_WARPS))
        if problem:
            found.append(f"line {launch.line}: {problem}")
    return found


def spilled_block(shapes: tuple[Shape, ...], values: dict[str, int], warps: int) -> str | None:
    """Why the largest of a kernel's block tensors, at ``values``, cannot stay in its ``warps`` warps'
    registers; None where it can (or a dimension is unknown)."""
    sized = [(count, shape) for shape in shapes if (count := _elements(shape, values)) is not None]
    if not sized:
        return None
    count, shape = max(sized)
    per_thread = count // (32 * warps)
    if per_thread <= THREAD_REGISTERS:
        return None
    dims = "x".join(str(d if isinstance(d, int) else values[d]) for d in shape)
    return (f"a {dims} block tensor over {warps} warp{'s' if warps > 1 else ''} is {per_thread} values a thread; "
            f"a thread has at most {THREAD_REGISTERS} registers (it would spill)")


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
