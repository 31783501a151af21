"""What a kernel family is: a matcher over the reference's traced graph and a writer of candidates.

A family (:mod:`kernelevo.variation.seeding.families.norm`, :mod:`~kernelevo.variation.seeding.families.reduce`)
reads an :class:`~kernelevo.variation.seeding.op_graph.OpGraph` and, where the graph is one it can
compute, returns a plan; from the plan it writes one complete candidate module per variant of its
structure (a ``ModelNew`` whose forward launches the family's Triton kernels, parameters under the
reference's names). Block sizes and warps are launch literals the template operator tunes; the
kernels mask every access, so their values change the speed, never the result.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from kernelevo.variation.seeding.inductor_seed import state_init_lines
from kernelevo.variation.seeding.op_graph import OpGraph, OpNode, refs


class FamilyError(Exception):
    """Why a family that matched a graph writes no seed (one line, for the run's log)."""


@dataclass(frozen=True)
class FamilySeed:
    variant: str  # the structure: "resident", "looped", "split", ...
    source: str  # a complete candidate module


class Family(Protocol):
    name: str

    def match(self, graph: OpGraph) -> Any | None:
        """The family's plan for ``graph``, or None where it computes something else."""

    def seeds(self, plan: Any, graph: OpGraph) -> list[FamilySeed]:
        """One candidate per variant of the family's structure; :class:`FamilyError` where none can be written."""


# calls that may stand beside a matched pattern without reaching the output: the statistics a norm
# also returns, their detaches, an empty placeholder tensor, and a training BatchNorm's bookkeeping on
# its buffers (num_batches_tracked += 1), which the output does not read
_SIDE_TARGETS = frozenset({"getitem", "aten.detach.default", "aten.empty.memory_format"})
_BUFFER_UPDATES = frozenset({"aten.add_.Tensor", "aten.copy_.default"})


def single_output(graph: OpGraph) -> OpNode | None:
    """The node the reference returns, where it returns one tensor."""
    out = graph.outputs()
    if len(out) != 1 or not isinstance(out[0], dict):
        return None
    return graph.node(out[0]["node"])


def only_calls(graph: OpGraph, matched: set[str]) -> bool:
    """Whether every call that reaches the output is in ``matched`` and every other one is matched too
    (a max pool's indices, squeezed) or a side call that computes nothing the reference returns (see
    ``_SIDE_TARGETS``)."""
    reach: set[str] = set()
    todo = [a["node"] for a in graph.outputs() if isinstance(a, dict)]
    while todo:
        name = todo.pop()
        if name not in reach:
            reach.add(name)
            todo.extend(refs(graph.node(name)))
    for node in graph.calls():
        if node.name in reach:
            if node.name not in matched:
                return False
        elif node.name not in matched and node.target not in _SIDE_TARGETS and not _buffer_update(graph, node):
            return False
    return True


def _buffer_update(graph: OpGraph, node: OpNode) -> bool:
    target = graph.arg(node, 0)
    return node.target in _BUFFER_UPDATES and target is not None and target.state in graph.buffers


def candidate(doc: str, kernels: str, graph: OpGraph, init: Sequence[str], forward: Sequence[str]) -> str:
    """A complete candidate module: imports, the family's kernels, and ``ModelNew`` with the reference's
    parameters and buffers (``init``'s lines after them, then ``forward(self, *inputs)``'s)."""
    init_lines = [*state_init_lines(graph.state, graph.buffers), *init]
    kernels = used_kernels(kernels, "\n".join(forward))
    body = "\n        ".join(init_lines)
    fwd = "\n        ".join(forward)
    return f'''"""{doc}"""

import math

import torch
import torch.nn as nn
import triton
import triton.language as tl
{kernels}

class ModelNew(nn.Module):
    def __init__(self, *init):
        {body}

    def forward(self, *inputs):
        {fwd}
'''


def used_kernels(kernels: str, host: str) -> str:
    """The functions of ``kernels`` that ``host`` calls, and those they call, in their order (the family's
    other kernels left out: a seed carries only what it launches)."""
    tree = ast.parse(kernels)
    functions = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    names = lambda text: set(re.findall(r"\b\w+\b", text)) & set(functions)  # noqa: E731
    keep, todo = set(), names(host)
    while todo:
        name = todo.pop()
        if name not in keep:
            keep.add(name)
            todo |= names(ast.unparse(functions[name]))
    lines = kernels.splitlines(keepends=True)
    chunks = ["".join(lines[f.lineno - 1 - len(f.decorator_list):f.end_lineno]).strip("\n")
              for f in functions.values() if f.name in keep]
    return "\n\n" + "\n\n\n".join(chunks) + "\n\n"


def partial_grid(variant: str) -> list[str]:
    """Source lines setting ``grid``, the programs of a two-stage sum over ``tiles`` tiles: one per tile, or
    for the ``persistent`` variant at most ``PROGRAMS`` (a name the template operator tunes), each looping."""
    if variant == "persistent":
        return ["PROGRAMS = 1056  # a few waves of programs on a GPU of about 132 SMs",
                "grid = max(1, min(PROGRAMS, tiles))"]
    return ["grid = max(1, tiles)"]


__all__ = ["Family", "FamilyError", "FamilySeed", "candidate", "only_calls", "partial_grid", "single_output",
           "used_kernels"]
