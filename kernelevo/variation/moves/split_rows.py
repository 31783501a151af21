"""Single-program rows split: a row that one program sums in a loop is summed by S programs, a slice each.

A kernel whose programs each reduce whole rows (grid = the rows, or blocks of rows) underfills the GPU
when the rows are few and long: 16 rows of a million elements are 16 programs on 132 SMs. The split
form gives each row ``S`` programs along a second grid axis (``S`` in :data:`SPLITS`); program ``s``
runs the row loop over its slice of the row's blocks, ``tl.cdiv(blocks, tl.num_programs(1))`` of them,
and adds what it would have stored to the output with ``tl.atomic_add``; the host allocates the output
zeroed. The slices cover the row's blocks once, in order, so the loop's body sees the same offsets and
masks as before, split between programs. The kernel reads the slice count from its grid, so the template
operator can tune nothing out of step.

The sum of the partial results is the result only where the result is linear in the row's sum. The move
is offered only where the AST shows that:

- the kernel is ``@triton.jit`` alone (an autotuner would add its trials into the output), launched once
  (a statement of its own, not kept), and has one program id, of axis 0, no ``tl.num_programs``, no
  ``tl.dot``, no atomics, no ``return``, ``break`` or ``continue``; one row loop at the top of its body
  (:func:`row_loops.row_loop`) and no other loop outside it;
- nothing before or in the loop writes memory; every accumulator the loop touches is set to zero before
  it (``0``, ``0.0``, ``tl.zeros(...)``, ``tl.full(..., 0, ...)``) and in the loop is only added to:
  ``acc += e``, ``acc = acc + e``, ``acc -= e``, or inductor's ``acc = tl.where(mask, acc + e, acc)``
  (through a name: ``tmp = acc + e``), ``e`` free of accumulators;
- after the loop every statement is an assignment or a ``tl.store``; each stored value is linear in the
  accumulators: sums and differences of linear values, a linear value times or divided by one that every
  slice computes alike (no name the loop assigns), ``tl.sum``, ``.to(...)``, ``tl.broadcast_to`` and
  reshaping subscripts (``[:, None]``) of one; addresses and masks of the stores are alike in every slice;
- each store's pointer is a parameter the kernel uses for that store alone, and the launch passes it a
  buffer allocated just before in the same function (``torch.empty``, ``torch.empty_like``,
  ``torch.empty_strided``, ``x.new_empty``), which nothing else touches before the launch.

So a sum, a mean (the sum divided by the length), a sum of squares (inductor's RMSNorm statistics) move;
a max, a softmax, an online statistic, or a sum feeding anything but a scaled store do not. Partial sums
are added in whatever order the programs finish: the result differs from the parent's by fp32 rounding.
"""

from __future__ import annotations

import ast
import functools

from kernelevo.utils.pyast import dotted_name, program_id_axis
from kernelevo.variation.moves.row_loops import Launch, RowLoop, call_names, constexprs, names, row_loop, writes
from kernelevo.variation.source.source_text import Move, SourceText

SPLITS = (4, 16, 64)  # programs a row: a 16-row sum on 132 SMs fills them from 16
_ZEROED = {"torch.empty": "torch.zeros", "torch.empty_like": "torch.zeros_like"}
_CARRIERS = frozenset({"tl.sum", "tl.broadcast_to", "tl.reshape", "tl.expand_dims", "tl.view"})
_CARRYING_METHODS = frozenset({"to", "broadcast_to", "reshape", "expand_dims"})
_LINEAR, _ALIKE = "linear", "alike"  # linear in the accumulators; the same in every slice
_OURS = ("_split_blocks", "_split_per", "_split_start", "_split_end")


def split_moves(text: SourceText, kernel: ast.FunctionDef, launch: Launch, writers: set[str]) -> list[Move]:
    """The kernel split over :data:`SPLITS` programs a row, where the module docstring's conditions hold."""
    shape = _shape(kernel, writers)
    if shape is None:
        return []
    loop, stores = shape
    host = _zeroed_outputs(text, kernel, launch, stores)
    grid = _grid(launch)
    if host is None or grid is None:
        return []
    edits = _kernel_edits(text, loop, stores) + host
    return [Move(f"{kernel.name}: single-program rows split over {splits} programs a row (sums added atomically)",
                 functools.partial(text.splice, [*edits, _grid_edit(text, grid, splits)])) for splits in SPLITS]


def _shape(kernel: ast.FunctionDef, writers: set[str]) -> tuple[RowLoop, list[tuple[ast.Call, str]]] | None:
    """The row loop and the final stores (each with its pointer) of a kernel of the split form's shape; None for
    any other kernel."""
    calls = call_names(kernel)
    ids = [n for n in ast.walk(kernel) if isinstance(n, ast.Call) and dotted_name(n.func) == "tl.program_id"]
    if "tl.dot" in calls or "tl.num_programs" in calls or any(c.startswith("tl.atomic_") for c in calls) \
            or len(ids) != 1 or program_id_axis(ids[0]) != 0 or set(calls) & writers \
            or any(isinstance(n, ast.Return | ast.Break | ast.Continue) for n in ast.walk(kernel)) \
            or names(kernel) & set(_OURS):
        return None
    blocks = constexprs(kernel)
    at = [i for i, stmt in enumerate(kernel.body) if row_loop(stmt, blocks) is not None]
    if len(at) != 1:
        return None
    loop = row_loop(kernel.body[at[0]], blocks)
    assert loop is not None
    inside = {id(n) for n in ast.walk(loop.loop)}
    if any(isinstance(n, ast.For | ast.While) and id(n) not in inside for n in ast.walk(kernel)):
        return None
    before, after = kernel.body[:at[0]], kernel.body[at[0] + 1:]
    if any(writes(stmt, writers) for stmt in [*before, loop.loop]):
        return None
    accumulators = _accumulators(before, loop)
    if accumulators is None:
        return None
    stores = _linear_stores(after, accumulators, (names_assigned(loop.loop) | {loop.variable}) - accumulators)
    pointers = _output_pointers(kernel, stores) if stores else None
    if not stores or pointers is None:
        return None
    return loop, list(zip(stores, pointers, strict=True))


def names_assigned(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _zero(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return type(node.value) in (int, float) and node.value == 0
    if isinstance(node, ast.Call) and dotted_name(node.func) in ("tl.zeros", "tl.zeros_like"):
        return True
    return isinstance(node, ast.Call) and dotted_name(node.func) == "tl.full" and len(node.args) >= 2 \
        and _zero(node.args[1])


def _accumulators(before: list[ast.stmt], loop: RowLoop) -> set[str] | None:
    """The zeroed names the loop touches, where it only adds to them; None where it reads or sets one otherwise
    (a running max, a rescaled sum)."""
    zeroed = {s.targets[0].id for s in before if isinstance(s, ast.Assign) and len(s.targets) == 1
              and isinstance(s.targets[0], ast.Name) and _zero(s.value)}
    zeroed = {z for z in zeroed if sum(z in names_assigned(s) for s in before) == 1}
    touched = names(loop.loop) & zeroed
    counted = dict.fromkeys(touched, 0)  # references to each made by the statements that add to it
    temps: dict[str, str] = {}  # inductor's tmp = acc + e: tmp -> acc
    consumed: set[str] = set()  # the temps an accumulator's update takes
    for stmt in loop.loop.body:
        acc = _accumulation(stmt, touched, temps)
        if acc is None:
            continue
        counted[acc] += sum(isinstance(n, ast.Name) and n.id == acc for n in ast.walk(stmt))
        if not isinstance(stmt, ast.Assign):
            continue
        target, value = ast.unparse(stmt.targets[0]), stmt.value
        if target != acc:  # tmp = acc + e
            temps[target] = acc
        elif isinstance(value, ast.Call) and isinstance(value.args[1], ast.Name) and value.args[1].id in temps:
            consumed.add(value.args[1].id)  # acc = tl.where(mask, tmp, acc)
    def references(name: str) -> int:
        return sum(isinstance(n, ast.Name) and n.id == name for n in ast.walk(loop.loop))

    if any(references(z) != counted[z] for z in touched) or set(temps) != consumed \
            or any(references(t) != 2 for t in temps):
        return None
    return touched


def _accumulation(stmt: ast.stmt, accumulators: set[str], temps: dict[str, str]) -> str | None:
    """The accumulator a loop statement adds to: ``acc += e``, ``acc = acc + e``, ``tmp = acc + e`` then
    ``acc = tl.where(mask, tmp, acc)``, or ``acc = tl.where(mask, acc + e, acc)``; None for any other."""
    if isinstance(stmt, ast.AugAssign):
        added = stmt.target
        if isinstance(added, ast.Name) and added.id in accumulators and isinstance(stmt.op, ast.Add | ast.Sub) \
                and not names(stmt.value) & accumulators:
            return added.id
        return None
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
        return None
    target, value = stmt.targets[0].id, stmt.value
    into = _added_to(value, accumulators)
    if into is not None and (into == target or target not in accumulators):
        return into  # acc = acc + e, or tmp = acc + e
    if target in accumulators and isinstance(value, ast.Call) and dotted_name(value.func) == "tl.where" \
            and len(value.args) == 3 and not value.keywords and isinstance(value.args[2], ast.Name) \
            and value.args[2].id == target and not names(value.args[0]) & accumulators:
        update = value.args[1]
        if (isinstance(update, ast.Name) and temps.get(update.id) == target) \
                or _added_to(update, accumulators) == target:
            return target
    return None


def _added_to(value: ast.expr, accumulators: set[str]) -> str | None:
    """The accumulator ``value`` is that accumulator plus (or minus) an expression free of accumulators."""
    if not isinstance(value, ast.BinOp) or not isinstance(value.op, ast.Add | ast.Sub):
        return None
    for side, other in ((value.left, value.right), (value.right, value.left)):
        if isinstance(side, ast.Name) and side.id in accumulators and not names(other) & accumulators \
                and (side is value.left or isinstance(value.op, ast.Add)):
            return side.id
    return None


def _linear_stores(after: list[ast.stmt], accumulators: set[str], sliced: set[str]) -> list[ast.Call] | None:
    """The stores after the loop, where each stores a value linear in the accumulators at an address and
    mask alike in every slice, and every other statement there assigns; None otherwise."""
    linear, varying = set(accumulators), set(sliced)
    stores = []
    for stmt in after:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            kind, target = _kind(stmt.value, linear, varying), stmt.targets[0].id
            if kind is None:
                return None
            linear.discard(target)
            varying.discard(target)
            if kind == _LINEAR:
                linear.add(target)
            continue
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if not isinstance(call, ast.Call) or dotted_name(call.func) != "tl.store" or not 2 <= len(call.args) <= 3 \
                or any(k.arg not in ("mask", "cache_modifier", "eviction_policy") for k in call.keywords):
            return None
        mask = call.args[2] if len(call.args) == 3 else next((k.value for k in call.keywords if k.arg == "mask"), None)
        if _kind(call.args[1], linear, varying) != _LINEAR or _kind(call.args[0], linear, varying) != _ALIKE \
                or (mask is not None and _kind(mask, linear, varying) != _ALIKE):
            return None
        stores.append(call)
    return stores


def _kind(node: ast.expr, linear: set[str], varying: set[str]) -> str | None:
    """Whether ``node`` is linear in the accumulators, alike in every slice, or neither (None)."""
    def kinds(nodes: list[ast.expr]) -> set[str | None]:
        return {_kind(n, linear, varying) for n in nodes}

    if isinstance(node, ast.Name):
        return _LINEAR if node.id in linear else None if node.id in varying else _ALIKE
    if isinstance(node, ast.Constant):
        return _ALIKE
    if isinstance(node, ast.Call):
        name = dotted_name(node.func) or ""
        func = node.func
        if isinstance(func, ast.Attribute) and not name.startswith("tl."):  # x.to(tl.float32)
            carried: ast.expr | None = func.value
            rest = [*node.args, *(k.value for k in node.keywords)]
            carries = func.attr in _CARRYING_METHODS
        else:
            carried = node.args[0] if node.args else None
            rest = [*node.args[1:], *(k.value for k in node.keywords)]
            carries = name in _CARRIERS
        if carried is None:
            return _ALIKE if kinds(rest) <= {_ALIKE} else None
        if carries and kinds(rest) <= {_ALIKE}:
            return _kind(carried, linear, varying)
        return _ALIKE if kinds([carried, *rest]) <= {_ALIKE} else None
    if isinstance(node, ast.BinOp):
        pair = (_kind(node.left, linear, varying), _kind(node.right, linear, varying))
        if pair == (_ALIKE, _ALIKE):
            return _ALIKE
        if isinstance(node.op, ast.Add | ast.Sub) and pair == (_LINEAR, _LINEAR):
            return _LINEAR
        if (isinstance(node.op, ast.Mult) and set(pair) == {_LINEAR, _ALIKE}) \
                or (isinstance(node.op, ast.Div) and pair == (_LINEAR, _ALIKE)):
            return _LINEAR
        return None
    if isinstance(node, ast.UnaryOp):
        kind = _kind(node.operand, linear, varying)
        return kind if isinstance(node.op, ast.USub | ast.UAdd) or kind == _ALIKE else None
    if isinstance(node, ast.Subscript):
        kind = _kind(node.value, linear, varying)
        if kind == _LINEAR:
            return _LINEAR if _reshaping(node.slice) else None
        return _ALIKE if kind == _ALIKE and _kind(node.slice, linear, varying) == _ALIKE else None
    if isinstance(node, ast.Attribute):
        return _ALIKE if _kind(node.value, linear, varying) == _ALIKE else None
    parts = [n for n in ast.iter_child_nodes(node) if isinstance(n, ast.expr)]
    if isinstance(node, ast.Compare | ast.BoolOp | ast.IfExp | ast.Tuple | ast.List | ast.Slice):
        return _ALIKE if kinds(parts) <= {_ALIKE} else None
    return None


def _reshaping(index: ast.expr) -> bool:
    """``[:, None]``, ``[None, :]``, ``[None]``: a subscript that only adds or keeps whole dimensions."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    return all((isinstance(p, ast.Constant) and p.value is None)
               or (isinstance(p, ast.Slice) and p.lower is None and p.upper is None and p.step is None)
               for p in parts)


def _output_pointers(kernel: ast.FunctionDef, stores: list[ast.Call]) -> list[str] | None:
    """Each store's pointer: the one parameter of its address named a pointer (``out_ptr``), or its address's one
    parameter; None where a store has no such pointer, two stores share one, or the kernel uses one elsewhere."""
    params = {a.arg for a in kernel.args.args}
    found = []
    for store in stores:
        mentioned = names(store.args[0]) & params
        pointers = [p for p in mentioned if "ptr" in p] or list(mentioned)
        if len(pointers) != 1:
            return None
        pointer = pointers[0]
        used = sum(isinstance(n, ast.Name) and n.id == pointer for n in ast.walk(kernel))
        if used != sum(isinstance(n, ast.Name) and n.id == pointer for n in ast.walk(store.args[0])):
            return None
        found.append(pointer)
    return found if len(set(found)) == len(found) else None


def _kernel_edits(text: SourceText, loop: RowLoop, stores: list[tuple[ast.Call, str]]) -> list[tuple[int, int, str]]:
    indent = " " * loop.loop.col_offset
    n, block = loop.length, loop.block
    slice_lines = [f"{indent}_split_blocks = tl.cdiv({n}, {block})  # this program's slice of the row's blocks "
                   "(axis 1 splits the row)",
                   f"{indent}_split_per = tl.cdiv(_split_blocks, tl.num_programs(1))"]
    if loop.by_index:
        slice_lines += [f"{indent}_split_start = tl.program_id(1) * _split_per",
                        f"{indent}_split_end = tl.minimum(_split_start + _split_per, _split_blocks)"]
        bounds = "_split_start, _split_end"
    else:
        slice_lines += [f"{indent}_split_start = tl.program_id(1) * _split_per * {block}",
                        f"{indent}_split_end = tl.minimum(_split_start + _split_per * {block}, {n})"]
        bounds = f"_split_start, _split_end, {block}"
    at = text.starts[loop.loop.lineno - 1]
    iterator = loop.loop.iter
    assert isinstance(iterator, ast.Call)
    edits = [(at, at, "\n".join(slice_lines) + "\n"),
             (text.span(iterator.args[0])[0], text.span(iterator.args[-1])[1], bounds)]
    for store, _ in stores:
        edits.append((*text.span(store.func), "tl.atomic_add"))
        edits += [text.keyword_removal(k) for k in store.keywords if k.arg != "mask"]
        close = text.source.rindex(")", 0, text.span(store)[1])
        edits.append((close, close, ", sem='relaxed'"))  # a sum needs no ordering between programs
    return edits


def _zeroed_outputs(text: SourceText, kernel: ast.FunctionDef, launch: Launch,
                    stores: list[tuple[ast.Call, str]]) -> list[tuple[int, int, str]] | None:
    """The edits that allocate each stored buffer zeroed; None where one is not allocated just for the launch."""
    body = launch.function.body
    at = body.index(launch.stmt)
    edits = []
    for _, pointer in stores:
        passed = launch.argument(kernel, pointer)
        if not isinstance(passed, ast.Name) or sum(isinstance(n, ast.Name) and n.id == passed.id
                                                   for n in ast.walk(launch.call)) != 1:
            return None  # an expression, or the buffer passed twice
        made = [i for i, s in enumerate(body[:at]) if passed.id in names_assigned(s)]
        stmt = body[made[-1]] if made else None
        if not isinstance(stmt, ast.Assign) or not isinstance(stmt.value, ast.Call) \
                or any(passed.id in names(s) for s in body[made[-1] + 1:at]):
            return None
        edit = _zeroing(text, stmt.value)
        if edit is None:
            return None
        edits.append(edit)
    return edits


def _zeroing(text: SourceText, call: ast.Call) -> tuple[int, int, str] | None:
    name = dotted_name(call.func) or ""
    if name in _ZEROED:
        return (*text.span(call.func), _ZEROED[name])
    if name == "torch.empty_strided":
        end = text.span(call)[1]
        return end, end, ".zero_()"
    if isinstance(call.func, ast.Attribute) and call.func.attr == "new_empty":
        end = text.span(call.func)[1]
        return end - len("new_empty"), end, "new_zeros"
    return None


def _grid(launch: Launch) -> ast.Tuple | None:
    """The launch's grid where it is a tuple of one axis (1s after it, if any), written at the launch or in a
    lambda there; None otherwise."""
    grid = launch.call.func.slice if isinstance(launch.call.func, ast.Subscript) else None
    if isinstance(grid, ast.Lambda):
        grid = grid.body
    if not isinstance(grid, ast.Tuple) or not grid.elts or any(
            not (isinstance(e, ast.Constant) and e.value == 1) for e in grid.elts[1:]):
        return None
    return grid


def _grid_edit(text: SourceText, grid: ast.Tuple, splits: int) -> tuple[int, int, str]:
    """The edit that gives the grid ``splits`` programs along its second axis."""
    if len(grid.elts) == 1:  # (rows,) -> (rows, splits)
        end = text.span(grid.elts[0])[1]
        return end, text.source.index(",", end) + 1, f", {splits}"
    return (*text.span(grid.elts[1]), str(splits))


__all__ = ["SPLITS", "split_moves"]
