"""Which loads of a kernel made resident read what an earlier statement already holds.

Once every row loop of a kernel runs once as straight-line code, its statements run in one sequence, and
two loads of one address, mask and ``other`` read the same values unless memory that may alias them was
written in between. This numbers values as that sequence assigns them (local value numbering): an
expression of pure operations (arithmetic, comparisons, ``tl.arange``, ``tl.where``, ``.to``, ...) on
numbered values gets the number of an equal earlier one; a load's number also counts the writes so far
through every pointer parameter its address reads; anything else (a call of a helper, an assignment inside
a branch or a nested loop, ``+=``) gets a fresh number. A statement of a former loop's body whose value,
holding a load, is numbered as a name already holds is a reuse.

Writes are counted per pointer parameter, an address's base (the leftmost term of its sum, through local
names: ``x_row = x_ptr + row * stride``): a store through ``out_ptr0`` does not age a load through
``in_ptr0`` where the launch passes them two different buffers (:func:`row_loops.apart`); a store whose
base is unknown, or a call of a helper that writes, ages every load.
"""

from __future__ import annotations

import ast
import itertools

from kernelevo.utils.pyast import dotted_name, is_constexpr
from kernelevo.variation.moves.row_loops import Launch, apart, writes

PURE = frozenset({"tl.arange", "tl.full", "tl.zeros", "tl.broadcast_to", "tl.where", "tl.program_id",
                  "tl.num_programs", "tl.cdiv", "tl.minimum", "tl.maximum", "tl.reshape", "tl.expand_dims",
                  "float", "int"})
PURE_METHODS = frozenset({"to", "broadcast_to", "reshape", "expand_dims"})
HINTS = frozenset({"eviction_policy", "cache_modifier"})  # load keywords that change no value


class _Numbering:
    def __init__(self, pointers: list[str], aliased: dict[str, set[str]]) -> None:
        self.of: dict[str, int] = {}  # name -> the number of the value it holds
        self.table: dict[str, int] = {}  # an expression's key -> its number
        self.pointers = pointers
        self.aliased = aliased  # pointer -> the pointers a write through it may age
        self.writes = dict.fromkeys(pointers, 0)  # pointer -> writes through it (or an alias) so far
        self.bases: dict[str, str | None] = {}  # a local name -> the pointer parameter it is an address into
        self.counter = itertools.count()

    def fresh(self) -> int:
        return next(self.counter) + 1_000_000  # never a table number's: those count from 0

    def number(self, node: ast.expr) -> int:
        key = self.key(node)
        if key is None:
            return self.fresh()
        return self.table.setdefault(key, len(self.table))

    def operand(self, node: ast.expr | None) -> str | None:
        """How an expression appears inside another's key: a name or a literal as itself, anything else by its
        value's number (so ``m[:, None]`` with ``m = c < n`` keys as ``(c < n)[:, None]`` does)."""
        if node is None or isinstance(node, ast.Name | ast.Constant):
            return self.key(node)
        key = self.key(node)
        return None if key is None else f"%{self.table.setdefault(key, len(self.table))}"

    def key(self, node: ast.expr | None) -> str | None:
        if node is None:
            return "_"
        if isinstance(node, ast.Name):
            return f"%{self.of[node.id]}" if node.id in self.of else f"${node.id}"
        if isinstance(node, ast.Constant):
            return f"{type(node.value).__name__}:{node.value!r}"
        if isinstance(node, ast.Call):
            return self._call_key(node)
        if isinstance(node, ast.Attribute):
            inner = self.operand(node.value)
            return None if inner is None else f"{inner}.{node.attr}"
        parts: list[ast.expr | None]
        if isinstance(node, ast.BinOp | ast.BoolOp | ast.UnaryOp | ast.Compare):
            ops = [node.op] if isinstance(node, ast.BinOp | ast.BoolOp | ast.UnaryOp) else node.ops
            parts = list([node.left, node.right] if isinstance(node, ast.BinOp) else node.values
                         if isinstance(node, ast.BoolOp) else [node.operand] if isinstance(node, ast.UnaryOp)
                         else [node.left, *node.comparators])
            label = ",".join(type(op).__name__ for op in ops)
        elif isinstance(node, ast.Subscript):
            parts, label = [node.value, node.slice], "[]"
        elif isinstance(node, ast.Slice):
            parts, label = [node.lower, node.upper, node.step], ":"
        elif isinstance(node, ast.Tuple | ast.List):
            parts, label = list(node.elts), "()"
        else:
            return None
        keys = [self.operand(p) for p in parts]
        return None if None in keys else f"{label}({' '.join(k for k in keys if k is not None)})"

    def _call_key(self, call: ast.Call) -> str | None:
        name = dotted_name(call.func) or ""
        if name == "tl.load":
            return self._load_key(call)
        if name in PURE:
            head: str | None = name
        elif isinstance(call.func, ast.Attribute) and call.func.attr in PURE_METHODS:
            inner = self.operand(call.func.value)
            head = None if inner is None else f"{inner}.{call.func.attr}"
        else:
            return None
        if head is None or any(k.arg is None for k in call.keywords):
            return None
        keys = [self.operand(a) for a in call.args] + [self.operand(k.value) for k in call.keywords]
        if None in keys:
            return None
        named = [f"{k.arg}={key}" for k, key in zip(call.keywords, keys[len(call.args):], strict=True)]
        return f"call({head} {' '.join(str(k) for k in keys[:len(call.args)])} {' '.join(named)})"

    def _load_key(self, call: ast.Call) -> str | None:
        given = {k.arg: k.value for k in call.keywords}
        if len(call.args) > 3 or not call.args or set(given) - HINTS - {"mask", "other"}:
            return None  # a boundary check, a volatile load: never reused
        address = call.args[0]
        mask = call.args[1] if len(call.args) > 1 else given.get("mask")
        other = call.args[2] if len(call.args) > 2 else given.get("other")
        base = self.base(address)
        keys = [self.operand(address), self.operand(mask), self.operand(other)]
        if base is None or None in keys:
            return None
        return f"load({' '.join(str(k) for k in keys)})@{base}:{self.writes[base]}"

    def base(self, node: ast.expr) -> str | None:
        """The parameter an address points into: the one term of its sum that is a parameter (or a local name
        made from one); None where there is no such term or more than one."""
        if isinstance(node, ast.Name):
            return node.id if node.id in self.writes and node.id not in self.bases else self.bases.get(node.id)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
            left, right = self.base(node.left), self.base(node.right)
            if isinstance(node.op, ast.Sub):
                return left if right is None else None
            if left is None or right is None:
                return left or right
            return None  # two parameters added: which one is the pointer is unknown
        return None

    def assign(self, target: str, value: ast.expr) -> int:
        number = self.number(value)
        self.of[target] = number
        self.bases[target] = self.base(value)
        return number

    def forget(self, stmt: ast.stmt) -> None:
        """Every name ``stmt`` assigns (inside branches and loops too) holds a value known to no one."""
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                self.of[node.id] = self.fresh()
                self.bases[node.id] = None

    def written(self, stmt: ast.stmt, writers: set[str]) -> None:
        """Counts the writes ``stmt`` makes, through the pointers they may alias."""
        for call in (n for n in ast.walk(stmt) if isinstance(n, ast.Call)):
            name = dotted_name(call.func) or ""
            if name in writers:
                aged = set(self.pointers)
            elif (name == "tl.store" or name.startswith("tl.atomic_")) and call.args:
                base = self.base(call.args[0])
                aged = set(self.pointers) if base is None else self.aliased[base]
            else:
                continue
            for pointer in aged:
                self.writes[pointer] += 1

    def holder(self, number: int, before: str) -> str | None:
        """A name holding value ``number`` (``before`` itself first: its statement then assigns nothing new)."""
        if self.of.get(before) == number:
            return before
        return next((name for name, held in self.of.items() if held == number), None)


def reused_loads(kernel: ast.FunctionDef, loops: list[ast.For], launch: Launch,
                 writers: set[str]) -> list[tuple[ast.stmt, str]]:
    """The statements of the loops' bodies (``loops`` at the top of ``kernel``'s body) whose value, holding a
    load, a name already holds once the loops run once in sequence: (statement, that name)."""
    pointers = [a.arg for a in kernel.args.args if not is_constexpr(a)]
    aliased = {p: {q for q in pointers if q == p or not apart(launch, kernel, p, q)} for p in pointers}
    numbering = _Numbering(pointers, aliased)
    in_loops = {id(loop) for loop in loops}
    found: list[tuple[ast.stmt, str]] = []
    for stmt in kernel.body:
        if id(stmt) in in_loops:
            assert isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name)
            numbering.assign(stmt.target.id, ast.Constant(0))
            for inner in stmt.body:
                _step(numbering, inner, writers, found)
        else:
            _step(numbering, stmt, writers, None)
    return found


def _step(numbering: _Numbering, stmt: ast.stmt, writers: set[str], found: list[tuple[ast.stmt, str]] | None) -> None:
    """Numbers what ``stmt`` assigns; in a former loop's body (``found`` given), notes a load it can reuse."""
    target = None
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        target = stmt.targets[0].id
    elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
        target = stmt.target.id
    value = getattr(stmt, "value", None)
    if target is None or not isinstance(value, ast.expr) or writes(value, writers):
        numbering.forget(stmt)
    else:
        if found is not None and isinstance(stmt, ast.Assign) and \
                any(isinstance(n, ast.Call) and dotted_name(n.func) == "tl.load" for n in ast.walk(value)):
            key = numbering.key(value)
            known = numbering.table.get(key) if key is not None else None
            holder = numbering.holder(known, target) if known is not None else None
            if holder is not None:
                found.append((stmt, holder))
        numbering.assign(target, value)
    numbering.written(stmt, writers)


__all__ = ["reused_loads"]
