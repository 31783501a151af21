"""Epilogue fusion: an in-place elementwise kernel moves into the store of the kernel before it.

Inductor fuses a GEMM's bias into its persistent TMA template but launches the GELU after it
as a second kernel, which reads and writes the whole output again (``buf1 = buf0`` then
``triton_poi_fused_gelu_1[...](buf1, ...)``): on a 4096 x 4096 fp16 output that is 64 MB of
memory traffic and a launch, about 8% of the GEMM's time on an H200. This move computes the
second kernel's arithmetic on the first kernel's value just before its store, and drops the
second launch.

It applies only where nothing the module computes can change:

- the second kernel (B) reads and writes one pointer in place, at one index
  (``tmp0 = tl.load(in_out_ptr0 + x0)`` ... ``tl.store(in_out_ptr0 + x0, tmp9)``), and
  everything between is arithmetic on those values (no other load, no index, no mask);
- the first kernel (A) writes that buffer with one store and never reads it, and is launched
  only here (its other launches would get the epilogue too);
- nothing but ``del``, aliases (``buf1 = buf0``) and sizes runs between the two launches.

B's input is A's value rounded to the buffer's element type, as it was when B loaded it
(``value.to(out_ptr0.dtype.element_ty)``), so the fused kernel computes the same numbers.
"""

from __future__ import annotations

import ast
import copy
import functools
import itertools
from dataclasses import dataclass

from kernelevo.utils.kept import is_kept
from kernelevo.utils.pyast import decorator_names, dotted_name, launched_kernel
from kernelevo.variation.source.source_text import Move, SourceText

# names an epilogue's arithmetic may use besides its own values (modules, not data)
MODULES = {"tl", "triton", "libdevice", "tl_math", "math"}


@dataclass(frozen=True)
class Epilogue:
    """An in-place elementwise kernel's arithmetic: what it loads, computes and stores."""

    pointer: int  # the position of the pointer it reads and writes among the kernel's parameters
    load: ast.Call
    steps: list[ast.Assign]  # the load's statement first, then the arithmetic in order
    names: list[str]  # the name each step assigns
    result: str  # the name it stores


@dataclass(frozen=True)
class Launch:
    kernel: str
    stmt: ast.Expr
    args: list[ast.expr]


def address_root(call: ast.Call) -> str | None:
    """The pointer a ``tl.load``/``tl.store`` addresses: the leftmost name of its first argument."""
    node: ast.AST | None = call.args[0] if call.args else None
    while isinstance(node, ast.BinOp):
        node = node.left
    return node.id if isinstance(node, ast.Name) else None


def _calls(node: ast.AST) -> list[tuple[str, ast.Call]]:
    return [(dotted_name(n.func) or "", n) for n in ast.walk(node) if isinstance(n, ast.Call)]


def _memory(kernel: ast.FunctionDef) -> list[tuple[str, ast.Call]]:
    """The kernel's loads, stores and atomics, by name."""
    return [(name, c) for name, c in _calls(kernel) if name in ("tl.load", "tl.store") or ".atomic_" in name]


def epilogue(kernel: ast.FunctionDef) -> Epilogue | None:
    """``kernel`` as an in-place elementwise epilogue, or None when it is not one."""
    memory = _memory(kernel)
    if [name for name, _ in memory] not in (["tl.load", "tl.store"], ["tl.store", "tl.load"]):
        return None
    load = next(c for name, c in memory if name == "tl.load")
    store = next(c for name, c in memory if name == "tl.store")
    params = [a.arg for a in kernel.args.args]
    pointer, stored = address_root(load), store.args[1] if len(store.args) >= 2 else None
    if pointer is None or pointer != address_root(store) or pointer not in params \
            or ast.dump(load.args[0]) != ast.dump(store.args[0]) or not isinstance(stored, ast.Name):
        return None
    for block in [kernel.body] + [s.body for s in kernel.body if isinstance(s, ast.For)]:
        at = next((i for i, s in enumerate(block) if isinstance(s, ast.Assign) and load in ast.walk(s)), None)
        if at is not None:
            break
    else:
        return None
    steps, tail = block[at:-1], block[-1]
    if not (isinstance(tail, ast.Expr) and tail.value is store):
        return None
    in_load = {id(n) for n in ast.walk(load)}
    known = set(MODULES)
    assigned: list[ast.Assign] = []
    names: list[str] = []
    for step in steps:
        target = step.targets[0] if isinstance(step, ast.Assign) and len(step.targets) == 1 else None
        if not (isinstance(step, ast.Assign) and isinstance(target, ast.Name)):
            return None
        used = {n.id for n in ast.walk(step.value) if isinstance(n, ast.Name) and id(n) not in in_load}
        if not used <= known:
            return None  # an index, a mask or a size: not arithmetic on the loaded values alone
        known.add(target.id)
        assigned.append(step)
        names.append(target.id)
    if stored.id not in names:
        return None
    return Epilogue(params.index(pointer), load, assigned, names, stored.id)


def launches(fn: ast.FunctionDef, kernels: dict[str, ast.FunctionDef]) -> list[tuple[int, Launch]]:
    """The kernel launches among a host function's own statements, with their index in its body."""
    found = []
    for i, stmt in enumerate(fn.body):
        name = launched_kernel(stmt.value) if isinstance(stmt, ast.Expr) else None
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and name in kernels:
            found.append((i, Launch(name, stmt, list(stmt.value.args))))
    return found


def aliases(between: list[ast.stmt]) -> dict[str, str] | None:
    """Names made aliases of others (``buf1 = buf0``) by statements that compute nothing on the GPU
    (``del``, aliases, sizes); None when another statement runs between the two launches."""
    found = {}
    for stmt in between:
        if isinstance(stmt, ast.Delete):
            continue
        if not (isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets)) \
                or any(isinstance(n, ast.Call) for n in ast.walk(stmt.value)):
            return None
        if isinstance(stmt.value, ast.Name):
            found.update({t.id: stmt.value.id for t in stmt.targets if isinstance(t, ast.Name)})
    return found


def launch_counts(tree: ast.Module, kernels: dict[str, ast.FunctionDef]) -> dict[str, int]:
    counts = dict.fromkeys(kernels, 0)
    for node in ast.walk(tree):
        name = launched_kernel(node)
        if name in counts:
            counts[name] += 1
    return counts


def _only_store(kernel: ast.FunctionDef, pointer: str) -> ast.Expr | None:
    """The statement of the one store through ``pointer`` in ``kernel``, which never reads it; else None."""
    through = [(name, c) for name, c in _memory(kernel) if address_root(c) == pointer]
    if [name for name, _ in through] != ["tl.store"] or len(through[0][1].args) < 2:
        return None
    store = through[0][1]
    return next((s for s in ast.walk(kernel) if isinstance(s, ast.Expr) and s.value is store), None)


def _epilogue_lines(epi: Epilogue, value: str, pointer: str, taken: set[str], indent: str) -> tuple[str, str]:
    """The epilogue's steps written on ``value`` (what the first kernel stores through ``pointer``), under
    names the first kernel does not use; and the name of the result."""
    fresh: dict[str, str] = {}
    for old in epi.names:
        new = f"epilogue_{old}"
        while new in taken or new in fresh.values():
            new += "_"
        fresh[old] = new
    rounded = ast.parse(f"({value}).to({pointer}.dtype.element_ty)", mode="eval").body
    lines = []
    for original in epi.steps:
        load_at = next((i for i, n in enumerate(ast.walk(original)) if n is epi.load), -1)
        step: ast.AST = copy.deepcopy(original)  # the original belongs to a parsed tree that is cached
        for node in ast.walk(step):
            if isinstance(node, ast.Name) and node.id in fresh:
                node.id = fresh[node.id]
        if load_at >= 0:  # the first step: the load becomes the first kernel's value, rounded as stored
            step = _Replace(list(ast.walk(step))[load_at], rounded).visit(step)
        lines.append(f"{indent}{ast.unparse(step)}\n")
    return "".join(lines), fresh[epi.result]


class _Replace(ast.NodeTransformer):
    def __init__(self, old: ast.AST, new: ast.expr) -> None:
        self.old, self.new = old, new

    def visit(self, node: ast.AST) -> ast.AST:
        return self.new if node is self.old else super().visit(node)


def fusions(source: str, tree: ast.Module) -> list[Move]:
    """One move per pair of launches where the second kernel can run as the first one's epilogue."""
    text = SourceText(source)
    kernels = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and "jit" in decorator_names(n)}
    counts = launch_counts(tree, kernels)
    found = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef) or fn.name in kernels or is_kept(source, fn):
            continue
        pairs = launches(fn, kernels)
        for (i, first), (j, second) in itertools.pairwise(pairs):
            move = _fusion(text, fn.body[i + 1:j], first, second, kernels, counts)
            if move is not None:
                found.append(move)
    return found


def _fusion(text: SourceText, between: list[ast.stmt], first: Launch, second: Launch,
            kernels: dict[str, ast.FunctionDef], counts: dict[str, int]) -> Move | None:
    a, b = kernels[first.kernel], kernels[second.kernel]
    epi = epilogue(b)
    names = aliases(between)
    if epi is None or names is None or a is b or counts[a.name] != 1 \
            or is_kept(text.source, a) or is_kept(text.source, b) \
            or epi.pointer >= len(second.args):
        return None
    passed = second.args[epi.pointer]
    buffer = names.get(passed.id, passed.id) if isinstance(passed, ast.Name) else ""
    at = next((k for k, arg in enumerate(first.args) if isinstance(arg, ast.Name) and arg.id == buffer), None)
    params = [p.arg for p in a.args.args]
    if at is None or at >= len(params):
        return None
    pointer = params[at]
    store = _only_store(a, pointer)
    if store is None or not isinstance(store.value, ast.Call):
        return None
    value = store.value.args[1]
    taken = {n.id for n in ast.walk(a) if isinstance(n, ast.Name)} | set(params)
    indent = " " * store.col_offset
    lines, result = _epilogue_lines(epi, ast.unparse(value), pointer, taken, indent)
    line_start = text.starts[store.lineno - 1]
    edits = [(line_start, line_start, lines), (*text.span(value), result)]
    launch = second.stmt
    edits.append((text.starts[launch.lineno - 1], text.starts[launch.end_lineno or launch.lineno],
                  f"{' ' * launch.col_offset}# {b.name}: fused into {a.name}'s store\n"))
    if counts[b.name] == 1:  # launched nowhere else: its definition goes too
        start = min([d.lineno for d in b.decorator_list] + [b.lineno])
        end = b.end_lineno or b.lineno
        while end < len(text.starts) - 1 and not text.source[text.starts[end]:text.starts[end + 1]].strip():
            end += 1  # and the blank lines after it
        edits.append((text.starts[start - 1], text.starts[end], ""))
    return Move(f"{b.name}: fused into {a.name}'s store", functools.partial(text.splice, edits))


__all__ = ["Epilogue", "Launch", "address_root", "aliases", "epilogue", "fusions", "launch_counts", "launches"]
