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
"""

from __future__ import annotations

import ast
import functools
import random
from dataclasses import dataclass

from kernelevo.utils.pyast import decorator_names

WARPS = (1, 2, 4, 8, 16, 32)
STAGES = (1, 2, 3, 4, 5, 6)
# Block sizes beyond this fit no GPU's registers well and cost minutes to compile.
MAX_BLOCK = 1 << 14
JUMP_STEPS = 3  # the farthest a jump moves a parameter along its choices


@dataclass(frozen=True)
class Tunable:
    """One literal in the source that can be changed: where it is and what it may become."""

    name: str
    value: int
    line: int  # 1-based
    col: int
    end_col: int
    context: str  # "launch", "config" or "constant"
    ordinal: int = 0  # the how-manieth tunable of this context and name, in source order

    @property
    def key(self) -> str:
        """Identifies the tunable across kernels of the same family (not by position)."""
        return f"{self.context}:{self.name}#{self.ordinal}"

    def choices(self) -> tuple[int, ...]:
        if self.name == "num_warps":
            return WARPS
        if self.name == "num_stages":
            return STAGES
        if _power_of_two(self.value):
            high = max(MAX_BLOCK, self.value)
            return tuple(1 << k for k in range(31) if 1 << k <= high)
        # a non-power-of-two integer (a split count, a group size): nearby values on both sides
        v = self.value
        return tuple(sorted({max(1, v // 2), max(1, v - 1), v, v + 1, v * 2}))

    def neighbours(self, steps: int = 1) -> list[int]:
        """Values at most ``steps`` positions away along :meth:`choices`."""
        options = self.choices()
        if self.value not in options:
            return [v for v in options if v != self.value][:2]
        i = options.index(self.value)
        return [options[j] for j in range(i - steps, i + steps + 1) if 0 <= j < len(options) and j != i]


def _power_of_two(v: int) -> bool:
    return v > 0 and v & (v - 1) == 0


def _int_literal(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


def _is_tunable_name(name: str) -> bool:
    return name in ("num_warps", "num_stages") or (name.isupper() and len(name) > 1) or name.startswith("BLOCK")


def find_tunables(source: str) -> list[Tunable]:
    """Every tunable literal in ``source``, in source order."""
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
    """``source`` with each tunable's literal replaced by its new value."""
    lines = source.splitlines(keepends=True)
    # right to left within a line, so earlier columns stay valid; ast's columns count UTF-8 bytes
    for tunable, value in sorted(changes.items(), key=lambda kv: (kv[0].line, kv[0].col), reverse=True):
        row = lines[tunable.line - 1].encode()
        lines[tunable.line - 1] = (row[: tunable.col] + str(value).encode() + row[tunable.end_col:]).decode()
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
    count = 1 if len(tunables) == 1 or rng.random() < 0.6 else min(max_changes, len(tunables))
    changes = {}
    for t in rng.sample(tunables, count):
        steps = JUMP_STEPS if rng.random() < jump_rate else 1
        changes[t] = rng.choice(t.neighbours(steps))
    return apply(source, changes), describe(changes)


def sweep(source: str) -> list[tuple[str, str]]:
    """Every single-step neighbour of ``source``: (new source, what changed)."""
    out = []
    for t in find_tunables(source):
        for value in t.neighbours():
            change = {t: value}
            out.append((apply(source, change), describe(change)))
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
    picked = rng.sample(differing, rng.randint(1, len(differing)))
    changes = {t: theirs[t.key].value for t in picked}
    return apply(source, changes), "crossover: " + describe(changes)
