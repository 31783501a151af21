"""Loops over a reduction's row in Triton kernels, as inductor and people write them: what the form moves read.

A row loop steps over the row's elements by a block that is a ``tl.constexpr`` of the kernel:

- ``for r0_offset in tl.range(0, r0_numel, R0_BLOCK):`` (inductor's looped reductions; ``roffset``,
  ``rnumel`` and ``RBLOCK`` in older inductor; ``range`` too, with any keywords of ``tl.range``);
- ``for i in range(tl.cdiv(n, BLOCK)):`` (or ``range(0, tl.cdiv(n, BLOCK))``), counting blocks.

The row's length is a name: a parameter of the kernel, or one the kernel's body assigns a literal
(inductor's ``r0_numel = 8192`` for a static size).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from kernelevo.utils.kept import kept_lines
from kernelevo.utils.pyast import copy_root, decorator_names, dotted_name, is_constexpr, launched_kernel
from kernelevo.variation.source.source_text import SourceText

REDUCTIONS = frozenset({"tl.sum", "tl.max", "tl.min", "tl.reduce", "tl.argmax", "tl.argmin", "tl.xor_sum"})
WRITES = ("tl.store", "tl.atomic_")  # a call whose name starts so writes memory


@dataclass(frozen=True)
class RowLoop:
    """A loop over a row, one block of it an iteration."""

    loop: ast.For
    variable: str
    length: str  # the row's length, a name
    block: str  # the constexpr the loop steps by
    by_index: bool  # ``range(tl.cdiv(n, BLOCK))``: the variable counts blocks, not elements


def row_loop(loop: ast.stmt, constexprs: set[str]) -> RowLoop | None:
    """``loop`` as a loop over a row by one of ``constexprs``; None for any other statement."""
    if not isinstance(loop, ast.For) or not isinstance(loop.target, ast.Name) or loop.orelse \
            or not isinstance(loop.iter, ast.Call) or dotted_name(loop.iter.func) not in ("range", "tl.range"):
        return None
    args = loop.iter.args
    if len(args) == 3 and _zero(args[0]) and isinstance(args[1], ast.Name) and isinstance(args[2], ast.Name) \
            and args[2].id in constexprs:
        return RowLoop(loop, loop.target.id, args[1].id, args[2].id, by_index=False)
    if len(args) in (1, 2) and (len(args) == 1 or _zero(args[0])):
        count = args[-1]
        if isinstance(count, ast.Call) and dotted_name(count.func) == "tl.cdiv" and len(count.args) == 2 \
                and isinstance(count.args[0], ast.Name) and isinstance(count.args[1], ast.Name) \
                and count.args[1].id in constexprs:
            return RowLoop(loop, loop.target.id, count.args[0].id, count.args[1].id, by_index=True)
    return None


def _zero(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == 0


def jit_functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef) and "jit" in decorator_names(n)}


def constexprs(kernel: ast.FunctionDef) -> set[str]:
    return {a.arg for a in kernel.args.args if is_constexpr(a)}


def call_names(node: ast.AST) -> list[str]:
    return [dotted_name(n.func) or "" for n in ast.walk(node) if isinstance(n, ast.Call)]


def names(node: ast.AST | None) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} if node is not None else set()


def _reaching(functions: dict[str, ast.FunctionDef], direct: set[str]) -> set[str]:
    """The functions that call one of ``direct`` themselves or through other functions of ``functions``."""
    found = {name for name, fn in functions.items() if set(call_names(fn)) & direct}
    while True:
        more = {name for name, fn in functions.items() if name not in found and set(call_names(fn)) & found}
        if not more:
            return found
        found |= more


def reducing_functions(tree: ast.Module) -> set[str]:
    """The jit functions of the module that reduce (``max2``, ``welford``: a ``tl.reduce`` inside)."""
    return _reaching(jit_functions(tree), set(REDUCTIONS))


def writing_functions(tree: ast.Module) -> set[str]:
    """The jit functions of the module that write memory, themselves or through others."""
    functions = jit_functions(tree)
    direct = {name for name, fn in functions.items() if any(c.startswith(WRITES) for c in call_names(fn))}
    return direct | _reaching(functions, direct)


def writes(node: ast.AST, writers: set[str]) -> bool:
    return any(c.startswith(WRITES) or c in writers for c in call_names(node))


def literal_length(kernel: ast.FunctionDef, length: str) -> int | None:
    """The literal the kernel's body assigns the row's length at its top level (``r0_numel = 8192``), if it
    does so once and nowhere else; None otherwise."""
    assigned = [n for n in ast.walk(kernel) if isinstance(n, ast.Assign | ast.AugAssign | ast.AnnAssign)
                and length in names(n.targets[0] if isinstance(n, ast.Assign) else n.target)]
    if len(assigned) != 1 or assigned[0] not in kernel.body or not isinstance(assigned[0], ast.Assign):
        return None
    value = assigned[0].value
    return value.value if isinstance(value, ast.Constant) and type(value.value) is int else None


@dataclass(frozen=True)
class Launch:
    """The one launch of a kernel: a statement of its own in a host function's body."""

    function: ast.FunctionDef
    stmt: ast.Expr
    call: ast.Call

    def argument(self, kernel: ast.FunctionDef, name: str) -> ast.expr | None:
        """What the launch passes for parameter ``name`` (positionally or by keyword); None if unknown."""
        given = {kw.arg: kw.value for kw in self.call.keywords if kw.arg}
        if name in given:
            return given[name]
        params = [a.arg for a in kernel.args.args]
        at = params.index(name) if name in params else len(self.call.args)
        if at >= len(self.call.args) or any(isinstance(a, ast.Starred) for a in self.call.args[:at + 1]):
            return None
        return self.call.args[at]

    def keyword(self, name: str) -> ast.keyword | None:
        return next((kw for kw in self.call.keywords if kw.arg == name), None)


def only_launch(source: str, tree: ast.Module, kernel: str) -> Launch | None:
    """The kernel's launch where it has exactly one, a statement of a host function's body on lines not
    kept; None otherwise."""
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and launched_kernel(n) == kernel]
    if len(calls) != 1:
        return None
    kept = kept_lines(source)
    for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and "jit" not in decorator_names(n)):
        for stmt in fn.body:
            if isinstance(stmt, ast.Expr) and stmt.value is calls[0]:
                lines = set(range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1))
                if lines & kept or fn.lineno in kept:
                    return None
                return Launch(fn, stmt, calls[0])
    return None


def apart(launch: Launch, kernel: ast.FunctionDef, first: str, second: str) -> bool:
    """Whether the launch passes two parameters distinct buffers: two different names, neither an alias of the
    other (``buf8 = buf4``) in the launching function."""
    a, b = launch.argument(kernel, first), launch.argument(kernel, second)
    if not isinstance(a, ast.Name) or not isinstance(b, ast.Name):
        return False
    copies = {t.id: s.value.id for s in ast.walk(launch.function) if isinstance(s, ast.Assign)
              and isinstance(s.value, ast.Name) for t in s.targets if isinstance(t, ast.Name)}
    return copy_root(copies, a.id) != copy_root(copies, b.id)



def line_span(text: SourceText, node: ast.stmt) -> tuple[int, int]:
    """The offsets of the whole lines a statement is written on."""
    return text.starts[node.lineno - 1], text.starts[node.end_lineno or node.lineno]


def next_power_of_2(n: int) -> int:
    return 1 << max(n - 1, 0).bit_length()


__all__ = ["REDUCTIONS", "Launch", "RowLoop", "apart", "call_names", "constexprs", "jit_functions", "line_span",
           "literal_length", "names", "next_power_of_2", "only_launch", "reducing_functions", "row_loop",
           "writes", "writing_functions"]
