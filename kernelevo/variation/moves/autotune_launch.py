"""The autotune move: a kernel launched with one literal configuration is autotuned over it and its
neighbours, a structure people and LLMs write often (parallelism level 3 of
:mod:`kernelevo.archive.descriptors`).

``kernel[grid](..., XBLOCK=1024, num_warps=4, num_stages=1)`` becomes a kernel decorated with
``@triton.autotune`` over ``num_warps`` 2, 4 and 8 (and one stage more or fewer for a kernel that
loops), the launch's own configuration first; the launch no longer names them. What the kernel
computes does not change: only warps and stages move, never a block a grid is made from. Its
meta-parameters stay where they were, at the launch.

Autotuning runs the kernel several times on the first call for each key, so the move keeps that
from changing a result:

- the key is every parameter that is not a pointer (sizes, strides, constexprs): each shape is
  tuned for itself, as the variants of a spec are different shapes;
- a pointer the kernel both reads and writes (an in-place kernel, inductor's ``in_out_ptr0``) is
  restored after each trial run (``restore_value``).

It is not made for a kernel with atomics (its trials would add up in its output), one launched in
place by aliasing (one buffer passed as two pointers, one of them written: the restore would not
know the other), one already autotuned or given heuristics, one whose launches differ in their
configuration or pass other launch options (``num_ctas``, ``maxnreg``), nor for kept code
(``# kernelevo: keep``).

Each trial is timed by ``triton.testing.do_bench`` with 5 ms of warm-up and 20 ms of runs, not its
default 25 and 100: the judge runs the autotuner for every variant's shape, and Triton's default
would spend 125 ms on each configuration of each. The judge gives every autotuned candidate these
trials (:mod:`kernelevo.evaluation.child.instrument`); the move writes them into the kernel so that it
keeps them where users run it.
"""

from __future__ import annotations

import ast
import functools
import itertools
from typing import NamedTuple

from kernelevo.utils.kept import is_kept, kept_lines
from kernelevo.utils.pyast import decorator_names, dotted_name, is_constexpr, launched_kernel
from kernelevo.variation.source.source_text import Move, SourceText
from kernelevo.variation.source.triton_limits import accumulatings, spilled_block

CONFIGURED = ("num_warps", "num_stages")
# launch options an autotune config sets too: passed at the launch as well, Triton would get them twice
OTHER_OPTIONS = frozenset({"num_ctas", "maxnreg", "num_buffers_warp_spec", "num_consumer_groups",
                           "reg_dec_producer", "reg_inc_consumer", "ir_override", "launch_cooperative_grid"})
DEFAULT_WARPS, DEFAULT_STAGES = 4, 3  # Triton's on NVIDIA GPUs where a launch names none
MAX_WARPS, MAX_STAGES = 32, 5
BENCH = "_kernelevo_autotune_bench"
BENCH_DEF = (
    f"\n\ndef {BENCH}(fn, quantiles):  # the autotune move's trials: 5 + 20 ms, not Triton's default 25 + 100 ms\n"
    "    return triton.testing.do_bench(fn, warmup=5, rep=20, quantiles=quantiles)\n"
)


def autotunings(source: str, tree: ast.Module, text: SourceText) -> list[Move]:
    """One move for each kernel :func:`_configuration` allows to be autotuned."""
    if not _imports_triton(tree):
        return []
    launches: dict[str, list[ast.Call]] = {}
    for node in ast.walk(tree):
        name = launched_kernel(node)
        if name:
            assert isinstance(node, ast.Call)
            launches.setdefault(name, []).append(node)
    has_bench = any(isinstance(n, ast.FunctionDef) and n.name == BENCH for n in tree.body)
    kept = kept_lines(source)
    found = []
    for kernel in tree.body:
        if not (isinstance(kernel, ast.FunctionDef) and decorator_names(kernel) == ["jit"]) or is_kept(source, kernel):
            continue
        at = launches.get(kernel.name, [])
        if not at or _atomics(kernel) or any(call.lineno in kept for call in at):  # a kept launch stays as it is
            continue
        use = _pointer_use(kernel)
        if any(_writes_an_alias(kernel, use.written, call) for call in at):
            continue
        configuration = _configuration(text, at)
        if configuration is None:
            continue
        warps, stages, launch_edits = configuration
        configs = _neighbours(warps, stages, loops=any(isinstance(n, ast.For | ast.While) for n in ast.walk(kernel)))
        configs = configs[:1] + [c for c in configs[1:] if not _spills(source, kernel.name, c[0])]
        edits = [_decorator(text, kernel, use, configs), *launch_edits]
        if not has_bench:
            edits.append(_after_imports(text, tree, BENCH_DEF))
        label = f"{kernel.name}: autotuned over num_warps/num_stages " + ", ".join(f"{w}/{s}" for w, s in configs)
        found.append(Move(label, functools.partial(text.splice, edits)))
    return found


def _decorator(text: SourceText, kernel: ast.FunctionDef, use: PointerUse,
               configs: list[tuple[int, int]]) -> tuple[int, int, str]:
    """The edit that puts ``@triton.autotune(...)`` above the kernel's ``@triton.jit``."""
    key = [a.arg for a in kernel.args.args if a.arg not in use.pointers]
    restore = sorted(use.written & use.read)
    listed = ", ".join(f"triton.Config({{}}, num_warps={w}, num_stages={s})" for w, s in configs)
    jit = kernel.decorator_list[0]
    header = (" " * (jit.col_offset - 1) + f"@triton.autotune(configs=[{listed}], key={key!r}"
              + (f", restore_value={restore!r}" if restore else "") + f", do_bench={BENCH})\n")
    line_start = text.starts[jit.lineno - 1]
    return line_start, line_start, header


def _configuration(text: SourceText, launches: list[ast.Call]) -> tuple[int, int, list[tuple[int, int, str]]] | None:
    """The warps and stages every launch names (Triton's defaults where it names none), and the edits
    that take them out of the launches; None where launches differ or a launch cannot lose them."""
    chosen: set[tuple[int, int]] = set()
    edits = []
    for call in launches:
        named = {kw.arg: kw for kw in call.keywords}
        if None in named or OTHER_OPTIONS & set(named):  # **options, or options a config would give twice
            return None
        values = []
        for option, default in zip(CONFIGURED, (DEFAULT_WARPS, DEFAULT_STAGES), strict=True):
            kw = named.get(option)
            if kw is None:
                values.append(default)
                continue
            if not (isinstance(kw.value, ast.Constant) and type(kw.value.value) is int):
                return None
            values.append(kw.value.value)
            removal = text.keyword_removal(kw)
            if removal[0] < text.span(call.func)[1]:
                return None  # its first argument: no comma before it to take with it
            edits.append(removal)
        chosen.add((values[0], values[1]))
    if len(chosen) != 1:
        return None
    warps, stages = chosen.pop()
    return warps, stages, edits


def _writes_an_alias(kernel: ast.FunctionDef, written: set[str], call: ast.Call) -> bool:
    """Whether a launch passes one buffer as two pointers and the kernel writes through one of them
    (``kernel[grid](x, x, n)``, in place by aliasing): each trial would read what the last one wrote, and
    the restore only knows the kernel's own in-place pointers."""
    params = [a.arg for a in kernel.args.args]
    positional = list(itertools.takewhile(lambda arg: not isinstance(arg, ast.Starred), call.args))  # *args: unknown
    passed = {p: ast.unparse(arg) for p, arg in zip(params, positional, strict=False)}
    passed |= {kw.arg: ast.unparse(kw.value) for kw in call.keywords if kw.arg in params}
    return any(passed[w] == passed[other] for w in written if w in passed for other in passed if other != w)


def _neighbours(warps: int, stages: int, *, loops: bool) -> list[tuple[int, int]]:
    """The launch's configuration first (the CPU interpreter runs only the first), then half and twice
    its warps, then, in a kernel that loops, one stage more (or fewer, at the most)."""
    found = [(warps, stages)]
    found += [(w, stages) for w in (warps // 2, warps * 2) if 1 <= w <= MAX_WARPS and w != warps]
    if loops:
        found.append((warps, stages + 1 if stages < MAX_STAGES else stages - 1))
    return found


def _spills(source: str, kernel: str, warps: int) -> bool:
    """Whether, on ``warps`` warps, a block tensor the kernel fills (an ``XBLOCK x R0_BLOCK`` accumulator)
    is more than a thread's registers at one of its launches: Triton would compile that trial for tens of
    seconds only to spill."""
    return any(spilled_block(launch.shapes, {name: value for name, _, value in launch.literals}, warps)
               for launch in accumulatings(source) if launch.kernel == kernel)


def _imports_triton(tree: ast.Module) -> bool:
    return any(isinstance(n, ast.Import) and any(a.name == "triton" and a.asname is None for a in n.names)
               for n in tree.body)


def _after_imports(text: SourceText, tree: ast.Module, code: str) -> tuple[int, int, str]:
    last = max(n.end_lineno or n.lineno for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom))
    return text.starts[last], text.starts[last], code


def _atomics(kernel: ast.FunctionDef) -> bool:
    return any(isinstance(n, ast.Call) and (dotted_name(n.func) or "").split(".")[-1].startswith("atomic_")
               for n in ast.walk(kernel))


ADDRESS_CALLS = ("make_block_ptr", "make_tensor_descriptor", "advance")  # an address made from the first argument
POINTER_CALLS = {"load": "read", "store": "written", "make_block_ptr": "", "make_tensor_descriptor": "",
                 "load_tensor_descriptor": "read", "store_tensor_descriptor": "written"}


class PointerUse(NamedTuple):
    pointers: set[str]  # the kernel's parameters that are pointers
    written: set[str]  # those it writes through
    read: set[str]  # those it reads through


def _pointer_use(kernel: ast.FunctionDef) -> PointerUse:
    """The kernel's parameters that are pointers, those it writes through and those it reads through.

    A load's or a store's address is a base pointer plus offsets (``x_ptr + row * stride + cols``);
    its base is the pointer, reached directly or through names assigned from it (``ptrs = x_ptr +
    offs``, ``desc = tl.make_tensor_descriptor(a_ptr, ...)``, ``p = tl.advance(p, ...)``). A parameter
    whose name says so (``ws_ptr``) is a pointer too, used or not."""
    params = {a.arg for a in kernel.args.args if not is_constexpr(a)}
    bases: dict[str, set[str]] = {}  # a local name -> the pointer parameters it is an address into

    def base(node: ast.AST) -> set[str]:
        if isinstance(node, ast.Name):
            return {node.id} if node.id in params else bases.get(node.id, set())
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
            left, right = base(node.left), base(node.right)
            named = {p for p in left | right if "ptr" in p}
            return named or left or right
        if isinstance(node, ast.Subscript):
            return base(node.value)
        if isinstance(node, ast.IfExp):
            return base(node.body) | base(node.orelse)
        if isinstance(node, ast.Call) and (node.args or node.keywords) and \
                (dotted_name(node.func) or "").split(".")[-1] in ADDRESS_CALLS:
            return base(node.args[0] if node.args else node.keywords[0].value)
        return set()

    for node in sorted((n for n in ast.walk(kernel) if isinstance(n, ast.Assign)), key=lambda n: n.lineno):
        for target in node.targets:
            if isinstance(target, ast.Name):
                bases[target.id] = base(node.value)

    pointers = {p for p in params if "ptr" in p}
    written: set[str] = set()
    read: set[str] = set()
    for call in (n for n in ast.walk(kernel) if isinstance(n, ast.Call)):
        name = (dotted_name(call.func) or "").split(".")[-1]
        if isinstance(call.func, ast.Attribute) and name in ("load", "store") \
                and not (dotted_name(call.func) or "").startswith(("tl.", "triton.")):
            address = base(call.func.value)  # desc.load(...) / desc.store(...)
        elif name in POINTER_CALLS and (call.args or call.keywords):
            address = base(call.args[0] if call.args else call.keywords[0].value)
        else:
            continue
        pointers |= address
        if POINTER_CALLS.get(name) == "written":
            written |= address
        elif POINTER_CALLS.get(name) == "read":
            read |= address
    return PointerUse(pointers, written, read)


__all__ = ["BENCH", "autotunings"]
