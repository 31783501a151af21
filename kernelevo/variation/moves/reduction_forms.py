"""Structural moves between the forms of a row reduction, so that inductor's and LLMs' kernels reach them too.

- **looped rows become resident**: a row reduction that walks its row in blocks, once a pass
  (:mod:`kernelevo.variation.moves.row_loops` says which loops count: inductor's ``for r0_offset in
  tl.range(0, r0_numel, R0_BLOCK)``, a hand-written ``for off in range(0, n, BLOCK)``), reads the row from
  global memory once a pass: inductor's online softmax three times, its layernorm twice. In the resident
  form one block holds the whole row (``R0_BLOCK`` the next power of two at or above the row's length),
  every loop runs once as straight-line code (its variable 0), and a load of the same address, mask and
  ``other`` as an earlier one, with nothing written in between that may alias it, reuses the earlier
  value: the row is read once.

  It applies to a kernel launched once (a statement of its own, not kept), that reduces (a ``tl.sum``,
  ``tl.max``, ... or a helper that calls one, as inductor's ``max2`` and ``welford``), with neither
  ``tl.dot`` nor atomics, whose row loops are all at the top of its body and step over one length by one
  block constexpr that the launch passes as a literal, and no other loop uses either. Where the block
  will be wider than the row (a length not a power of two, or not known), every load and store that moves
  with a loop must be masked against the row's length (inductor's ``r0_mask = r0_index < r0_numel``, a
  hand-written ``mask = cols < n``): the padded lanes are then what the loop's last, partial block held.
  A program holds ``R0_BLOCK`` times the kernel's other blocks (inductor's ``XBLOCK``) at most
  :data:`LIMIT` elements, on enough warps for :data:`PER_THREAD` elements a thread.

  - where the row's length is known (a literal in the kernel, as inductor writes ``r0_numel = 8192`` for a
    static size, or a literal at the launch), the kernel is rewritten in place: its block is declared in
    its body (``R0_BLOCK: tl.constexpr = 8192``, out of the template operator's reach: a narrower block
    would drop part of the row) and the launch no longer passes it. A row past :data:`LIMIT` gets no move;
    a wide ``XBLOCK`` is narrowed with the ``triton.cdiv`` of its grid;
  - where it is a value of the host (inductor's generic kernels, most hand-written ones), the resident
    kernel is written beside the looped one (``<name>_resident``), launched where ``0 < n <= cap`` with
    its block ``triton.next_power_of_2(n)``, and the looped one stays for longer rows.

- **single-program rows split**: :mod:`kernelevo.variation.moves.split_rows`, which says when it applies.
"""

from __future__ import annotations

import ast
import functools
import math
from dataclasses import dataclass

from kernelevo.utils.kept import is_kept
from kernelevo.utils.pyast import decorator_names, dotted_name
from kernelevo.variation.moves.row_loops import (
    REDUCTIONS,
    Launch,
    RowLoop,
    call_names,
    constexprs,
    jit_functions,
    line_span,
    literal_length,
    names,
    next_power_of_2,
    only_launch,
    reducing_functions,
    row_loop,
    writing_functions,
)
from kernelevo.variation.moves.row_values import reused_loads
from kernelevo.variation.moves.split_rows import split_moves
from kernelevo.variation.source.source_text import Move, SourceText

# Elements one program holds resident (a power of two): 128 KiB of fp32, 64 a thread on 16 warps. On an H100 a
# thread has 255 registers; inductor's online softmax keeps about three row-shaped values live.
LIMIT = 32768
PER_THREAD = 64  # elements of one row-shaped value a thread holds at most, where the warps allow
MAX_WARPS = 32
DEFAULT_WARPS = 4  # Triton's where a launch names none
_HOST_CALLS = frozenset({"triton.cdiv", "len", "int", "min", "max"})  # a row's length may be computed with these
_HOST_METHODS = frozenset({"size", "numel", "stride", "dim"})


def form_moves(source: str, tree: ast.Module, text: SourceText) -> list[Move]:
    """The moves between reduction forms for every kernel of ``source`` not kept: looped rows made resident,
    single-program rows split."""
    reducing, writers = reducing_functions(tree), writing_functions(tree)
    found = []
    for kernel in jit_functions(tree).values():
        if decorator_names(kernel) != ["jit"] or is_kept(source, kernel):
            continue  # autotuned kernels, heuristics: their configurations set the blocks
        launch = only_launch(source, tree, kernel.name)
        if launch is None:
            continue
        move = _resident(text, tree, kernel, launch, reducing, writers)
        if move is not None:
            found.append(move)
        found += split_moves(text, kernel, launch, writers)
    return found


@dataclass(frozen=True)
class _Row:
    """A kernel's row loops and what its launch gives them."""

    loops: list[RowLoop]
    length: str
    block: str
    known: int | None  # the row's length where it is a literal
    passed: ast.expr | None  # what the launch passes for it otherwise
    others: dict[str, int]  # the kernel's other blocks (inductor's XBLOCK) and their values at the launch
    warps: int


def _row(kernel: ast.FunctionDef, launch: Launch, reducing: set[str]) -> _Row | None:
    """The kernel's row loops, where the module docstring's conditions on them hold; else None."""
    calls = set(call_names(kernel))
    if "tl.dot" in calls or any(c.startswith("tl.atomic_") for c in calls) or not calls & (REDUCTIONS | reducing):
        return None
    blocks = constexprs(kernel)
    loops = [found for stmt in kernel.body if (found := row_loop(stmt, blocks)) is not None]
    if not loops or len({(loop.length, loop.block) for loop in loops}) != 1:
        return None
    length, block = loops[0].length, loops[0].block
    tops = {id(loop.loop) for loop in loops}
    for node in ast.walk(kernel):
        if isinstance(node, ast.While) or (isinstance(node, ast.For) and id(node) not in tops
                                            and names(node.iter) & {length, block}):
            return None
        if isinstance(node, ast.Break | ast.Continue | ast.Return) or (
                isinstance(node, ast.Name) and node.id == block and isinstance(node.ctx, ast.Store)):
            return None
    if _has_default(kernel, block):
        return None
    keyword = launch.keyword(block)
    warps = launch.keyword("num_warps")
    if keyword is None or not _int(keyword.value) or (warps is not None and not _int(warps.value)):
        return None
    known = literal_length(kernel, length)
    passed = None
    if known is None:
        passed = launch.argument(kernel, length)
        if passed is None or any(isinstance(n, ast.Name) and n.id == length and isinstance(n.ctx, ast.Store)
                                 for n in ast.walk(kernel)):
            return None  # not passed, or the kernel's own length is another
        if _int(passed):
            known, passed = _value(passed), None
        elif not _host_value(passed):
            return None
    others = _other_blocks(kernel, launch, block)
    if others is None or (known is not None and known < 1):
        return None
    warp_count = _value(warps.value) if warps is not None else DEFAULT_WARPS
    return _Row(loops, length, block, known, passed, others, warp_count or DEFAULT_WARPS)


def _int(node: ast.expr) -> bool:
    return _value(node) is not None


def _value(node: ast.expr) -> int | None:
    """A positive int literal's value; None for anything else."""
    if isinstance(node, ast.Constant) and type(node.value) is int and node.value > 0:
        return int(node.value)
    return None


def _has_default(kernel: ast.FunctionDef, name: str) -> bool:
    params = kernel.args.args
    with_default = params[len(params) - len(kernel.args.defaults):]
    return any(a.arg == name for a in with_default)


def _host_value(node: ast.expr) -> bool:
    """Whether a launch argument can be read again in a guard: names, arithmetic, sizes; no other calls."""
    for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
        name = dotted_name(call.func) or ""
        method = call.func.attr if isinstance(call.func, ast.Attribute) else ""
        if name not in _HOST_CALLS and method not in _HOST_METHODS:
            return False
    return True


def _other_blocks(kernel: ast.FunctionDef, launch: Launch, block: str) -> dict[str, int] | None:
    """The values of the kernel's other ``tl.arange`` blocks: launch literals or literals of its body."""
    declared = {s.target.id: value for s in kernel.body if isinstance(s, ast.AnnAssign)
                and isinstance(s.target, ast.Name) and s.value is not None and (value := _value(s.value)) is not None}
    found: dict[str, int] = {}
    for call in (n for n in ast.walk(kernel) if isinstance(n, ast.Call) and dotted_name(n.func) == "tl.arange"):
        end = call.args[1] if len(call.args) == 2 else None
        if isinstance(end, ast.Constant) and type(end.value) is int:
            continue  # a literal range is no block a launch sets
        if not isinstance(end, ast.Name):
            return None
        if end.id == block:
            continue
        keyword = launch.keyword(end.id)
        value = _value(keyword.value) if keyword is not None else None
        if value is not None:
            found[end.id] = value
        elif end.id in declared:
            found[end.id] = declared[end.id]
        else:
            return None
    return found


def _row_masked(loop: RowLoop) -> bool:
    """Whether every load and store that moves with the loop is masked against the row's length."""
    derived, masks = {loop.variable}, set[str]()
    for node in (n for n in ast.walk(loop.loop) if isinstance(n, ast.Assign)):
        targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
        if names(node.value) & derived:
            derived.update(targets)
        if _compares_to(node.value, derived, loop.length) or names(node.value) & masks:
            masks.update(targets)
    for call in (n for n in ast.walk(loop.loop) if isinstance(n, ast.Call)):
        name = dotted_name(call.func) or ""
        if not (name in ("tl.load", "tl.store") or name.startswith("tl.atomic_")) or not call.args \
                or not names(call.args[0]) & derived:
            continue
        at = 1 if name == "tl.load" else 2
        mask = call.args[at] if len(call.args) > at else next((k.value for k in call.keywords if k.arg == "mask"),
                                                              None)
        if mask is None or not (_compares_to(mask, derived, loop.length) or names(mask) & masks):
            return False
    return True


def _compares_to(node: ast.expr, derived: set[str], length: str) -> bool:
    """Whether ``node`` holds ``index < length`` (or ``length > index``), the index moving with the loop."""
    for compare in (n for n in ast.walk(node) if isinstance(n, ast.Compare) and len(n.ops) == 1):
        left, right = compare.left, compare.comparators[0]
        if isinstance(compare.ops[0], ast.Gt):
            left, right = right, left
        elif not isinstance(compare.ops[0], ast.Lt):
            continue
        if isinstance(right, ast.Name) and right.id == length and names(left) & derived:
            return True
    return False


def _straight(text: SourceText, row: _Row, reused: list[tuple[ast.stmt, str]]) -> list[tuple[int, int, str]] | None:
    """The edits that make each row loop straight-line code (its variable 0, its body a level out) and replace
    each reused load's value with the name that holds it (the statement goes where it assigns that name)."""
    gone: set[int] = set()  # lines an edit below replaces from their start: no dedent there
    edits = []
    for stmt, name in reused:
        assert isinstance(stmt, ast.Assign)
        if [ast.unparse(t) for t in stmt.targets] == [name]:
            edits.append((*line_span(text, stmt), ""))
            gone.update(range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1))
        else:
            start, end = text.span(stmt.value)
            edits.append((start, end, name))
            gone.update(range(stmt.value.lineno + 1, (stmt.value.end_lineno or stmt.value.lineno) + 1))
    lines = text.source.splitlines(keepends=True)
    for loop in row.loops:
        first = loop.loop.body[0]
        depth = first.col_offset - loop.loop.col_offset
        last = loop.loop.end_lineno or loop.loop.lineno
        body = range(first.lineno, last + 1)
        starts = [s.lineno for s in ast.walk(loop.loop) if isinstance(s, ast.stmt)]
        if len(set(starts)) != len(starts) \
                or any(lines[n - 1].strip() and not lines[n - 1].startswith(" " * depth) for n in body):
            return None  # two statements on a line (``a = 1; b = 2``, the body beside its header), or a dedent
        indent = " " * loop.loop.col_offset
        edits.append((text.starts[loop.loop.lineno - 1], text.starts[first.lineno - 1],
                      f"{indent}{loop.variable} = 0  # the whole row in one block: the loop ran once\n"))
        edits += [(text.starts[n - 1], text.starts[n - 1] + depth, "") for n in body
                  if n not in gone and lines[n - 1].strip()]
    return edits


def _resident(text: SourceText, tree: ast.Module, kernel: ast.FunctionDef, launch: Launch, reducing: set[str],
              writers: set[str]) -> Move | None:
    row = _row(kernel, launch, reducing)
    if row is None:
        return None
    exact = row.known is not None and next_power_of_2(row.known) == row.known
    if not exact and not all(_row_masked(loop) for loop in row.loops):
        return None
    others = math.prod(row.others.values())
    reused = reused_loads(kernel, [loop.loop for loop in row.loops], launch, writers)
    edits = _straight(text, row, reused)
    if edits is None:
        return None
    if row.known is not None:
        return _in_place(text, kernel, launch, row, edits, others)
    return _beside(text, tree, kernel, launch, row, edits, others)


def _warps(elements: int, floor: int) -> int:
    return max(floor, min(MAX_WARPS, elements // (32 * PER_THREAD)))


def _in_place(text: SourceText, kernel: ast.FunctionDef, launch: Launch, row: _Row, edits: list[tuple[int, int, str]],
              others: int) -> Move | None:
    """A row of known length: the kernel made resident where it is."""
    assert row.known is not None
    width = next_power_of_2(row.known)
    if width > LIMIT:
        return None
    edits = list(edits)
    if width * others > LIMIT:  # fewer rows a program: the one other block narrowed with its grid's cdiv
        narrowed = _narrowed(text, launch, row.others, LIMIT // width)
        if narrowed is None:
            return None
        edits += narrowed
        others = LIMIT // width
    param = next(a for a in kernel.args.args if a.arg == row.block)
    start = text.offset(param.lineno, param.col_offset)
    end = text.offset(param.end_lineno or param.lineno, param.end_col_offset or 0)
    comma = text.source.rindex(",", 0, start)
    edits.append((comma, end, ""))
    first = kernel.body[1] if _docstring(kernel) and len(kernel.body) > 1 else kernel.body[0]
    at = text.starts[first.lineno - 1]
    edits.append((at, at, f"{' ' * first.col_offset}{row.block}: tl.constexpr = {width}  # the whole row: "
                          f"{row.known} elements\n"))
    keyword = launch.keyword(row.block)
    assert keyword is not None
    edits.append(text.keyword_removal(keyword))
    edits.append(_warps_edit(text, launch, str(_warps(width * others, row.warps))))
    label = f"{kernel.name}: looped rows resident (R0 block {width} for rows of {row.known}, one read a row)"
    return Move(label, functools.partial(text.splice, edits))


def _docstring(kernel: ast.FunctionDef) -> bool:
    first = kernel.body[0]
    return isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)


def _narrowed(text: SourceText, launch: Launch, others: dict[str, int],
              value: int) -> list[tuple[int, int, str]] | None:
    """The edits that set the launch's one other block to ``value``, with the ``triton.cdiv`` of its grid that
    divides by it; None where there is not exactly one of each."""
    if len(others) != 1:
        return None
    name, old = next(iter(others.items()))
    keyword = launch.keyword(name)
    grid = launch.call.func.slice if isinstance(launch.call.func, ast.Subscript) else None
    divisions = [n.args[1] for n in ast.walk(grid) if isinstance(n, ast.Call) and dotted_name(n.func) == "triton.cdiv"
                 and len(n.args) == 2 and isinstance(n.args[1], ast.Constant) and n.args[1].value == old] \
        if grid is not None else []
    if keyword is None or not isinstance(keyword.value, ast.Constant) or len(divisions) != 1:
        return None
    return [(*text.span(keyword.value), str(value)), (*text.span(divisions[0]), str(value))]


def _warps_edit(text: SourceText, launch: Launch, warps: str) -> tuple[int, int, str]:
    keyword = launch.keyword("num_warps")
    if keyword is not None:
        return (*text.span(keyword.value), warps)
    close = text.source.rindex(")", 0, text.span(launch.call)[1])
    return close, close, f", num_warps={warps}"


def _beside(text: SourceText, tree: ast.Module, kernel: ast.FunctionDef, launch: Launch, row: _Row,
            edits: list[tuple[int, int, str]], others: int) -> Move | None:
    """A row whose length the host knows: the resident kernel beside the looped one, launched where rows fit."""
    name = f"{kernel.name}_resident"
    cap = LIMIT // others
    if cap < 1 or any(isinstance(n, ast.FunctionDef) and n.name == name for n in ast.walk(tree)):
        return None
    assert row.passed is not None
    length = ast.unparse(row.passed)
    first = min([d.lineno for d in kernel.decorator_list] + [kernel.lineno])
    region = (text.starts[first - 1], text.starts[kernel.end_lineno or kernel.lineno])
    define = text.source.index(kernel.name, text.offset(kernel.lineno, kernel.col_offset))
    copy = _within(text.source, region, [*edits, (define, define + len(kernel.name), name)])
    keyword = launch.keyword(row.block)
    assert keyword is not None
    held = f"triton.next_power_of_2({length})" + (f" * {others}" if others > 1 else "")  # elements a program holds
    warps = f"max({row.warps}, min({MAX_WARPS}, {held} // {32 * PER_THREAD}))"
    stmt_span = line_span(text, launch.stmt)
    assert isinstance(launch.call.func, ast.Subscript)
    resident = _within(text.source, stmt_span, [(*text.span(launch.call.func.value), name),
                                                (*text.span(keyword.value), f"triton.next_power_of_2({length})"),
                                                _warps_edit(text, launch, warps)])
    looped = text.source[stmt_span[0]:stmt_span[1]]
    indent = " " * launch.stmt.col_offset
    guarded = (f"{indent}if 0 < {length} <= {cap}:  # rows that fit one block: {name}, one read a row\n"
               f"{_indented(resident)}{indent}else:\n{_indented(looped)}")
    label = f"{kernel.name}: looped rows resident beside it ({name}, rows of up to {cap} elements)"
    return Move(label, functools.partial(text.splice, [(*stmt_span, guarded),
                                                       (region[1], region[1], f"\n\n{copy}")]))


def _within(source: str, region: tuple[int, int], edits: list[tuple[int, int, str]]) -> str:
    """The text of ``region`` with the edits that fall inside it made."""
    start, end = region
    inside = [(a - start, b - start, new) for a, b, new in edits if start <= a <= b <= end]
    return SourceText(source[start:end]).splice(inside)


def _indented(lines: str) -> str:
    return "".join(f"    {line}" if line.strip() else line for line in lines.splitlines(keepends=True))


__all__ = ["LIMIT", "form_moves"]
