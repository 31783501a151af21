"""Structural moves on Triton kernels that keep what they compute: new cells without an LLM.

The template operator's parameter moves keep a kernel's structure, so an offline archive
seeded with one kernel stays in one cell. These moves change the structure and nothing the
kernel computes:

- **pipelining**: a loop over ``range(...)`` that loads becomes ``tl.range(..., num_stages=S)``,
  so Triton overlaps the next iterations' loads with this one's work (memory level 3 of
  :mod:`kernelevo.archive.descriptors`); a ``tl.range`` without stages gets them; a loop
  around a ``tl.dot`` may instead be warp-specialized (``warp_specialize=True``: some warps
  load while others multiply);
- **eviction hints**: a kernel's ``tl.load``s without a policy get one, ``evict_first`` for
  a pointer read once (streamed: keep it out of L2's way) and ``evict_last`` for one read
  in several places (keep it for the next read); a kernel whose loads all carry hints loses
  them;
- **grid-stride loops**: a kernel whose one program id picks a block of ``BLOCK`` elements
  (``off = tl.program_id(0) * BLOCK`` as inductor writes it, or ``pid = tl.program_id(0)``
  then ``pid * BLOCK``), masked against a size argument (``idx < n``), loops over the blocks
  ``tl.range(tl.program_id(0), tl.cdiv(n, BLOCK), tl.num_programs(0))``, and its launch grid
  is capped at a few programs per SM: persistent programs (parallelism level 2). The loop is
  right for any grid, so a launch the move cannot find keeps its grid and stays correct;
- **epilogue fusion**: an in-place elementwise kernel launched right after a kernel that writes
  its buffer runs inside that kernel's store, one launch and one pass over the output fewer
  (:mod:`kernelevo.variation.moves.fuse_epilogue`, which says when it applies);
- **tanh through exp2** (this and the next two: :mod:`kernelevo.variation.moves.fast_math`):
  ``libdevice.tanh(z)`` becomes ``1 - 2 / (1 + exp2(2 z log2 e))``, one
  hardware ``ex2`` and a division instead of libdevice's polynomial and branches: within 2e-7
  of tanh in fp32 (absolute; near 0, where tanh is tiny, not within a few ulps), cheaper where
  the tanh is not hidden behind memory (a tanh GELU in a GEMM's epilogue, which runs while no
  tile is loading: 0.2054 ms fused against 0.2433 with libdevice's, on an H100);
- **exp through exp2**: ``libdevice.exp(x)`` (inductor's exact exp) becomes ``exp2(x log2 e)``, one
  hardware ``ex2`` and a multiply: within 9.2e-7 of exp (relative) on [-16, 0], where softmax's
  ``x - max`` lies, and 3.8e-6 on [-87, 88], against libdevice's 1.5e-7, on an H100
  (benchmarks/exp2_error.py). Cheaper where the exps are not hidden behind memory: inductor's
  online softmax takes two an element (the exported cross-entropy: 0.2020 ms, 0.1969 with the move);
- **log through lg2**: ``tl.log(x)`` (inductor's ``tl_math.log``, libdevice's ``log``) becomes the hardware's
  ``lg2.approx.f32`` times ln 2, two instructions where Triton's log is a software polynomial of about 35 an
  element (PTX for sm_90). For a kernel whose logs hold the SMs' issue rate below the memory's (a KL divergence
  takes two an element: benchmarks/README.md, "Where the time goes"). Its error is measured against fp64 by
  benchmarks/log2_error.py. Inline PTX does not run on the CPU interpreter, so the move is offered only when
  the parent was judged on a GPU;
- **autotuning**: a kernel launched with one literal configuration is autotuned over its warps and
  stages around it (parallelism level 3; :mod:`kernelevo.variation.moves.autotune_launch`);
- **library GEMM and Triton GEMM**: a GEMM handed to the library through torch becomes a Triton GEMM of
  the project's own, which epilogue fusion can then extend, and back; or that Triton GEMM on its fp32
  operands' bf16 parts, six bf16 products a term on the tensor cores (bf16x6, about fp32's accuracy; not on
  the CPU interpreter, whose bf16 products are wrong) (:mod:`kernelevo.variation.moves.library_gemm`);
- **row epilogue**: a persistent row reduction (softmax, a norm, logsumexp) launched after such a Triton GEMM
  runs on the GEMM's tile in registers where a row fits one tile, one launch and a round trip of the GEMM's
  output fewer (:mod:`kernelevo.variation.moves.row_epilogue`, which says when it applies).

Each move edits the source text in place (comments and layout kept), and a move that does
not apply is not offered. A kernel whose ``def`` is marked ``# kernelevo: keep`` gets none.
"""

from __future__ import annotations

import ast
import functools
import random
from collections.abc import Callable

from kernelevo.utils.kept import is_kept
from kernelevo.utils.pyast import decorator_names, dotted_name, is_constexpr, launched_kernel, program_id_axis
from kernelevo.variation.moves.autotune_launch import autotunings
from kernelevo.variation.moves.fast_math import fast_exp, fast_log, fast_tanh
from kernelevo.variation.moves.fuse_epilogue import fusions
from kernelevo.variation.moves.library_gemm import bf16x6_swaps, gemm_swaps
from kernelevo.variation.moves.reduction_forms import form_moves
from kernelevo.variation.moves.row_epilogue import row_epilogues
from kernelevo.variation.source.source_text import Move, SourceText

STAGES = (2, 3, 4)
# programs a grid-stride kernel is launched with at most: 2, 4 and 8 per SM of an H100 / H200 (132 SMs)
PROGRAMS = (264, 528, 1056)


def _kernels(tree: ast.Module) -> list[ast.FunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and "jit" in decorator_names(n)]


def _binds_tl(tree: ast.Module) -> bool:
    return any(isinstance(n, ast.Import) and any(a.name == "triton.language" and a.asname == "tl" for a in n.names)
               for n in tree.body)


def _calls_named(node: ast.AST, name: str) -> list[ast.Call]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Call) and dotted_name(n.func) == name]


def _loads(node: ast.AST) -> list[ast.Call]:
    return _calls_named(node, "tl.load")


def _before_close(text: SourceText, call: ast.Call) -> int:
    """The offset of a call's closing parenthesis."""
    return text.source.rindex(")", 0, text.span(call)[1])


def _pipelining(text: SourceText, kernel: ast.FunctionDef) -> list[Move]:
    moves = []
    for loop in (n for n in ast.walk(kernel) if isinstance(n, ast.For)):
        it = loop.iter
        if not (isinstance(it, ast.Call) and (_loads(loop) or _calls_named(loop, "tl.load_tensor_descriptor"))):
            continue
        name = dotted_name(it.func) or ""
        keywords = {kw.arg for kw in it.keywords}
        if name not in ("range", "tl.range") or keywords & {"num_stages", "warp_specialize"}:
            continue
        close = _before_close(text, it)
        to_tl = []
        if name == "range":
            start = text.offset(it.func.lineno, it.func.col_offset)
            to_tl = [(start, start + len("range"), "tl.range")]
        for stages in STAGES:
            moves.append(Move(f"{kernel.name}: loop at line {loop.lineno} pipelined over {stages} stages",
                              functools.partial(text.splice, [(close, close, f", num_stages={stages}"), *to_tl])))
        if _calls_named(loop, "tl.dot"):
            moves.append(Move(f"{kernel.name}: loop at line {loop.lineno} warp-specialized",
                              functools.partial(text.splice, [(close, close, ", warp_specialize=True"), *to_tl])))
    return moves


def _eviction(text: SourceText, kernel: ast.FunctionDef) -> list[Move]:
    loads = _loads(kernel)
    if not loads:
        return []
    hinted = [call for call in loads if any(kw.arg == "eviction_policy" for kw in call.keywords)]
    if len(hinted) == len(loads):
        edits = []
        for call in loads:
            edits.append(text.keyword_removal(next(k for k in call.keywords if k.arg == "eviction_policy")))
        return [Move(f"{kernel.name}: eviction hints dropped", functools.partial(text.splice, edits))]
    if hinted:
        return []  # hints chosen by hand for some loads: leave them to the author

    def pointer(call: ast.Call) -> str:
        names = [n.id for n in ast.walk(call.args[0]) if isinstance(n, ast.Name)] if call.args else []
        return names[0] if names else ""

    reads: dict[str, int] = {}
    for call in loads:
        reads[pointer(call)] = reads.get(pointer(call), 0) + 1
    edits = []
    for call in loads:
        policy = "evict_last" if reads[pointer(call)] > 1 else "evict_first"
        close = _before_close(text, call)
        edits.append((close, close, f", eviction_policy={policy!r}"))
    return [Move(f"{kernel.name}: eviction hints (streamed loads evict_first, reread ones evict_last)",
                 functools.partial(text.splice, edits))]


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _constexprs(kernel: ast.FunctionDef) -> set[str]:
    return {a.arg for a in kernel.args.args if is_constexpr(a)}


def _block_of(kernel: ast.FunctionDef, start: int) -> tuple[str, str, str] | None:
    """(what the program id becomes, the block's constexpr, the loop's variable) of the statement
    ``kernel.body[start]`` where the program id picks a block; None when it does not."""
    stmt = kernel.body[start]
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
        return None
    constexprs = _constexprs(kernel)
    value, target = stmt.value, stmt.targets[0].id
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult):  # off = tl.program_id(0) * BLOCK
        sides = [value.left, value.right]
        pid = next((x for x in sides if isinstance(x, ast.Call) and dotted_name(x.func) == "tl.program_id"), None)
        block = next((x for x in sides if isinstance(x, ast.Name) and x.id in constexprs), None)
        if pid is not None and block is not None:
            return target, block.id, "_block"
    if isinstance(value, ast.Call) and dotted_name(value.func) == "tl.program_id":  # pid = tl.program_id(0)
        for n in ast.walk(kernel):
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult):
                names = [x.id for x in (n.left, n.right) if isinstance(x, ast.Name)]
                if target in names and any(x in constexprs for x in names if x != target):
                    return target, next(x for x in names if x != target), target
    return None


def _size_of(kernel: ast.FunctionDef, start: int, offset: str) -> str | None:
    """The size argument the block's indices are masked against (``idx < n``, ``idx`` made from ``offset``),
    else a size fixed in the kernel before the program id (``xnumel = 67108864`` as inductor writes it
    for static sizes, where every block is full and no load is masked)."""
    sizes = {a.arg for a in kernel.args.args} - _constexprs(kernel)
    masked = _masked_size(kernel, start, offset, sizes)
    if masked is not None:
        return masked
    for stmt in kernel.body[:start]:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and stmt.targets[0].id.endswith("numel") and isinstance(stmt.value, ast.Constant) \
                and type(stmt.value.value) is int:
            return stmt.targets[0].id
    return None


def _masked_size(kernel: ast.FunctionDef, start: int, offset: str, sizes: set[str]) -> str | None:
    made_from = {offset}
    for stmt in kernel.body[start + 1:]:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                    and _names(n.value) & made_from:
                made_from.add(n.targets[0].id)
            if isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], ast.Lt) \
                    and isinstance(n.comparators[0], ast.Name) and n.comparators[0].id in sizes \
                    and _names(n.left) & made_from:
                return n.comparators[0].id
    return None


def _grid_elements(tree: ast.Module, kernel: str) -> list[ast.expr]:
    """The first grid dimension of every launch of ``kernel`` (a tuple, a lambda returning one, or a
    name assigned either in the launching function)."""
    found = []
    for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name != kernel):
        assigned = {t.id: n.value for n in ast.walk(fn) if isinstance(n, ast.Assign)
                    for t in n.targets if isinstance(t, ast.Name)}
        for call in (n for n in ast.walk(fn) if isinstance(n, ast.Call)):
            if launched_kernel(call) != kernel:
                continue
            assert isinstance(call.func, ast.Subscript)
            grid: ast.expr | None = call.func.slice
            if isinstance(grid, ast.Name):
                grid = assigned.get(grid.id)
            if isinstance(grid, ast.Lambda):
                grid = grid.body
            if isinstance(grid, ast.Tuple) and grid.elts:
                found.append(grid.elts[0])
    return found


def _grid_stride(text: SourceText, tree: ast.Module, kernel: ast.FunctionDef) -> list[Move]:
    ids = _calls_named(kernel, "tl.program_id")
    nested = any(isinstance(n, ast.Return | ast.FunctionDef | ast.Lambda) for n in ast.walk(kernel) if n is not kernel)
    if len(ids) != 1 or program_id_axis(ids[0]) != 0 or _calls_named(kernel, "tl.num_programs") or nested:
        return []
    start = next((i for i, stmt in enumerate(kernel.body) if ids[0] in ast.walk(stmt)), None)
    if start is None:
        return []
    stmt = kernel.body[start]
    block = _block_of(kernel, start)
    if block is None or stmt.end_lineno != stmt.lineno:
        return []
    offset, size_block, variable = block
    size = _size_of(kernel, start, offset)
    last = kernel.end_lineno or stmt.lineno
    lines = text.source.splitlines(keepends=True)
    if size is None or any(line.count(";") for line in lines[stmt.lineno - 1:last]):
        return []
    indent = " " * stmt.col_offset
    header = (f"{indent}for {variable} in tl.range(tl.program_id(0), tl.cdiv({size}, {size_block}), "
              "tl.num_programs(0)):\n")
    if variable != offset:  # off = tl.program_id(0) * BLOCK: the block's offset from the loop's block
        header += f"{indent}    {offset} = {variable} * {size_block}\n"
    kernel_edits = [(text.starts[stmt.lineno - 1], text.starts[stmt.lineno], header)]
    kernel_edits += [(text.starts[n - 1], text.starts[n - 1], "    ") for n in range(stmt.lineno + 1, last + 1)
                     if lines[n - 1].strip()]
    grids = _grid_elements(tree, kernel.name)
    found = []
    for cap in PROGRAMS if grids else (None,):
        edits = list(kernel_edits)
        for element in grids:
            begin, end = text.span(element)
            edits += [(begin, begin, "min("), (end, end, f", {cap})")]
        label = f"{kernel.name}: grid-stride loop over blocks" + (f", grid capped at {cap} programs" if cap else "")
        found.append(Move(label, functools.partial(text.splice, edits)))
    return found


def moves(source: str, interpreted: bool = False, *, bf16x6: bool = True) -> list[Move]:
    """The structural moves ``source`` allows; none for CUDA or a source that does not parse. Where kernels
    run on the CPU interpreter (``interpreted``), none that writes inline PTX or multiplies bf16 tiles; none
    that runs fp32 GEMMs as bf16 products where the spec says so (``bf16x6`` False)."""
    return [move for kind in _kinds(interpreted, bf16x6) for move in _kind_moves(source, kind)]


class _Parsed:
    """A source read once for every kind of move: its tree, its text, and its kernels not kept."""

    def __init__(self, source: str, tree: ast.Module) -> None:
        self.source, self.tree, self.text = source, tree, SourceText(source)
        self.kernels = [k for k in _kernels(tree) if not is_kept(source, k)]

    def each_kernel(self, kind: Callable[[SourceText, ast.FunctionDef], list[Move]]) -> list[Move]:
        return [m for kernel in self.kernels for m in kind(self.text, kernel)]


# Each kind of move, in the order :func:`moves` lists them; those the CPU interpreter cannot run last (``_kinds``).
_KINDS: tuple[Callable[[_Parsed], list[Move]], ...] = (
    lambda p: p.each_kernel(_pipelining),
    lambda p: p.each_kernel(_eviction),
    lambda p: p.each_kernel(lambda text, kernel: _grid_stride(text, p.tree, kernel)),
    lambda p: p.each_kernel(fast_tanh),
    lambda p: p.each_kernel(fast_exp),
    lambda p: fusions(p.source, p.tree),
    lambda p: autotunings(p.source, p.tree, p.text),
    lambda p: gemm_swaps(p.source, p.tree, p.text),
    lambda p: row_epilogues(p.source, p.tree, p.text),
    lambda p: form_moves(p.source, p.tree, p.text),
    lambda p: bf16x6_swaps(p.source, p.tree, p.text),  # bf16 tl.dot: wrong on Triton 3.9's interpreter
    lambda p: p.each_kernel(fast_log),  # inline PTX: not on the interpreter
)
_GPU_ONLY_KINDS = 2
_BF16X6_KIND = len(_KINDS) - 2


def _kinds(interpreted: bool, bf16x6: bool = True) -> list[int]:
    return [k for k in range(len(_KINDS) - (_GPU_ONLY_KINDS if interpreted else 0)) if bf16x6 or k != _BF16X6_KIND]


@functools.lru_cache(maxsize=128)  # a tree is about 200 KiB: 128 parents hold about 25 MB
def _parsed(source: str) -> _Parsed | None:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    return _Parsed(source, tree) if _binds_tl(tree) else None


# Finding the moves walks the whole tree several times (milliseconds a kernel), and the same elite is a
# parent again and again (and up to 20 times in a row while the loop redraws duplicates): the driver
# kept one CPU core busy with these walks at a few hundred evaluators (benchmarks/driver_ceiling.py).
# Each kind is found only when it is drawn, and remembered per parent.
@functools.lru_cache(maxsize=8192)
def _kind_moves(source: str, kind: int) -> tuple[Move, ...]:
    """The moves of the kind at ``kind`` in :data:`_KINDS` (pipelining, eviction hints, grid-stride loops, tanh
    and exp through exp2, epilogue fusion, autotuning, library and Triton GEMMs, row epilogues, reduction
    forms, bf16x6 GEMMs, log through lg2), over every kernel not kept."""
    parsed = _parsed(source)
    return tuple(_KINDS[kind](parsed)) if parsed is not None else ()


def restructure(source: str, rng: random.Random, interpreted: bool = False, *,
                bf16x6: bool = True) -> tuple[str, str] | None:
    """``source`` with one structural move applied, and its label; None when none applies (``interpreted``
    and ``bf16x6``: as :func:`moves`).

    A kind of move is drawn first, then one of its moves: pipelining offers three stage counts for
    every loop of every kernel, and drawn from all moves at once it would crowd out a kind that has
    one move, such as the one epilogue fusion of a GEMM (benchmarks/README.md, 2026-11-25). The kinds are
    tried in a random order and the first that has a move is taken: a kind drawn evenly among those that
    have one, with only the kinds tried before it found."""
    order = _kinds(interpreted, bf16x6)
    rng.shuffle(order)
    for kind in order:
        found = _kind_moves(source, kind)
        if found:
            move = rng.choice(found)
            return move.apply(), move.label
    return None


__all__ = ["Move", "moves", "restructure"]
