"""The template operator: tunes a kernel's parameters without an LLM.

It finds the tunable values in a kernel's source by reading its AST:

- integer keyword arguments at a kernel launch, ``kernel[grid](..., BLOCK_SIZE=1024, num_warps=4)``:
  ``tl.constexpr`` meta-parameters, ``num_warps`` and ``num_stages``;
- the same inside ``triton.Config({...}, num_warps=..., num_stages=...)`` of an autotuner;
- upper-case integer constants assigned in host code or at module level
  (``BLOCK = 1024``), which is how kernels often expose block sizes and grid splits.

A mutation moves one or two of them to a neighbouring legal value (powers of two for
block sizes, 1..32 warps, 1..6 stages); a sweep lists every single-step neighbour; a
crossover takes the values of a second kernel with the same tunables. Edits are spliced
into the source text at the literal's position, so comments and layout survive.

CUDA C++ candidates (CuPy ``RawModule`` or ``load_inline``) are read by
:mod:`kernelevo.variation.template_cuda`: ``#define`` / ``constexpr`` sizes, template
arguments, block dimensions and unroll factors, each with the literals that must agree with
it (a ``__launch_bounds__``, the grid's ceiling division, a shared array's size), rewritten
together. Their mutants that break the hardware's limits are dropped
(:mod:`kernelevo.variation.cuda_limits`).
"""

from __future__ import annotations

import ast
import functools
import random

from kernelevo.utils.cuda_source import is_cuda_source
from kernelevo.utils.pyast import decorator_names
from kernelevo.variation import cuda_limits, template_cuda
from kernelevo.variation.tunable import MAX_BLOCK, STAGES, UNROLLS, WARPS, Link, Tunable

__all__ = ["JUMP_STEPS", "MAX_BLOCK", "STAGES", "UNROLLS", "WARPS", "Link", "Tunable", "apply", "crossover",
           "describe", "find_tunables", "mutate", "sweep"]

JUMP_STEPS = 3  # the farthest a jump moves a parameter along its choices
CUDA_TRIES = 20  # draws a CUDA mutation gets to find a mutant within the hardware's limits


@functools.lru_cache(maxsize=64)  # asked once per public call on the same source
def _is_cuda(source: str) -> bool:
    return is_cuda_source(source)


def _fits(mutant: str, cuda: bool) -> bool:
    """Whether a mutant keeps the limits its language knows (CUDA: threads per block, shared memory)."""
    return not cuda or not cuda_limits.problems(mutant)


def _int_literal(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


def _is_tunable_name(name: str) -> bool:
    return name in ("num_warps", "num_stages") or (name.isupper() and len(name) > 1) or name.startswith("BLOCK")


def find_tunables(source: str) -> list[Tunable]:
    """Every tunable literal in ``source``, in source order (CUDA C++ candidates: see template_cuda)."""
    if _is_cuda(source):
        return list(template_cuda.find_tunables(source))
    return list(_tunables(source))


@functools.lru_cache(maxsize=64)  # the template operator asks again for each of its draws
def _tunables(source: str) -> tuple[Tunable, ...]:
    tree = ast.parse(source)
    jit_bodies = {id(n) for fn in ast.walk(tree) if isinstance(fn, ast.FunctionDef) and "jit" in decorator_names(fn)
                  for stmt in fn.body for n in ast.walk(stmt)}
    found: list[Tunable] = []
    for node in ast.walk(tree):
        if id(node) in jit_bodies:
            continue  # device code: constants there are the algorithm, not its parameters
        if isinstance(node, ast.Call):
            context = _call_context(node)
            if context is None:
                continue
            for kw in node.keywords:
                if kw.arg and _is_tunable_name(kw.arg) and _int_literal(kw.value):
                    found.append(_tunable(kw.arg, kw.value, context))
            if context == "config" and node.args and isinstance(node.args[0], ast.Dict):
                for k, v in zip(node.args[0].keys, node.args[0].values, strict=True):
                    if isinstance(k, ast.Constant) and isinstance(k.value, str) and _int_literal(v):
                        found.append(_tunable(k.value, v, "config"))
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            value = node.value
            if name.isupper() and len(name) > 1 and isinstance(value, ast.Constant) and type(value.value) is int \
                    and value.value > 0:
                found.append(_tunable(name, value, "constant"))
    found.sort(key=lambda t: (t.line, t.col))
    seen: dict[str, int] = {}
    numbered = []
    for t in found:
        n = seen.get(f"{t.context}:{t.name}", 0)
        seen[f"{t.context}:{t.name}"] = n + 1
        numbered.append(Tunable(t.name, t.value, t.line, t.col, t.end_col, t.context, n))
    return tuple(numbered)


def _tunable(name: str, node: ast.expr, context: str) -> Tunable:
    assert isinstance(node, ast.Constant) and isinstance(node.value, int) and node.end_col_offset is not None
    return Tunable(name, node.value, node.lineno, node.col_offset, node.end_col_offset, context)


def _call_context(call: ast.Call) -> str | None:
    """'launch' for kernel[grid](...), 'config' for triton.Config(...), else None."""
    if isinstance(call.func, ast.Subscript):
        return "launch"
    name = ast.unparse(call.func)
    if name.endswith("Config"):
        return "config"
    return None


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


def mutate(source: str, rng: random.Random, *, max_changes: int = 2, jump_rate: float = 0.25) -> tuple[str, str] | None:
    """``source`` with one or two parameters moved; None when nothing is tunable.

    Most moves go to a neighbouring value (a local search around the elite); with
    ``jump_rate`` a parameter jumps up to ``JUMP_STEPS`` values away instead, so the
    search does not stall once every neighbour of every elite has been tried.
    """
    tunables = [t for t in find_tunables(source) if t.neighbours()]
    if not tunables:
        return None
    cuda = _is_cuda(source)
    for _ in range(CUDA_TRIES if cuda else 1):
        count = 1 if len(tunables) == 1 or rng.random() < 0.6 else min(max_changes, len(tunables))
        changes = {}
        for t in rng.sample(tunables, count):
            steps = JUMP_STEPS if rng.random() < jump_rate else 1
            changes[t] = rng.choice(t.neighbours(steps))
        new = apply(source, changes)
        if _fits(new, cuda):
            return new, describe(changes)
    return None


def sweep(source: str) -> list[tuple[str, str]]:
    """Every single-step neighbour of ``source`` within the hardware's limits: (new source, what changed)."""
    out, cuda = [], _is_cuda(source)
    for t in find_tunables(source):
        for value in t.neighbours():
            change = {t: value}
            new = apply(source, change)
            if _fits(new, cuda):
                out.append((new, describe(change)))
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
    for _ in range(CUDA_TRIES if cuda else 1):
        picked = rng.sample(differing, rng.randint(1, len(differing)))
        changes = {t: theirs[t.key].value for t in picked}
        new = apply(source, changes)
        if _fits(new, cuda):
            return new, "crossover: " + describe(changes)
    return None
