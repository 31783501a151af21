"""Losses: an elementwise expression of the inputs, per-row reductions of it, and a mean or sum of everything.

Matches a reference whose traced graph returns one scalar, ``mean`` / ``sum`` over every element
(``aten.mean.default``, ``aten.sum.default``, ``aten.smooth_l1_loss`` with mean or sum reduction), then
at most a multiplication or division by a number (or by an input's dim: KL's batchmean), of:

- an elementwise expression (``add``, ``sub``, ``rsub``, ``mul``, ``div``, ``pow`` by 2, ``neg``, ``abs``,
  ``log``, ``exp``, ``sqrt``, ``xlogy``, ``clamp``, ``clamp_min``, ``relu``, smooth-L1's) of inputs of one
  shape S, inputs of shape S[:-1] + [1] (one value per row: hinge's labels) and numbers;
- or of per-row values: ``sum`` / ``mean`` / the 2-norm (``linalg_vector_norm``, ``norm``) over S's last
  dim of such an expression, which later expressions may read again (cosine similarity: the rows'
  norms, then the sum of the normalized products; triplet margin: two distances per row).

MSE, Huber (smooth L1), hinge, KL divergence, cosine-similarity and triplet-margin losses have these
graphs. Cross-entropy (a gather by integer labels) is matched and written apart:
:mod:`kernelevo.variation.seeding.families.cross_entropy`.

Why it is faster (bytes moved): the inputs are read once, 4N bytes each, and nothing of size N is
written, where an unfused graph writes and re-reads every intermediate. The reduction is two-stage
and deterministic: each program's partial sum in a buffer of its own, then one small program adds
them in a fixed order (no atomics, so a loss is the same bit for bit from run to run).

- ``persistent``: a fixed grid (PROGRAMS, tunable) walking tiles of BLOCK_M rows by BLOCK_D columns,
  a partial per program: one wave of programs whatever the rows;
- ``tiles``: a program per tile of BLOCK_M rows, the partials as many as the tiles.

A per-row value that a later expression reads is computed in a pass of its own over the tile's rows
(one pass per level of such values: cosine's norms, then its products); a tile's rows are a few KB,
so the later passes read them from L1 or L2 and DRAM sees each input once.

The kernel is written for the matched graph: its expressions are the graph's ops in Triton, and its
launch settings the tunables.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from kernelevo.variation.seeding.families import cross_entropy
from kernelevo.variation.seeding.families.family import (
    FamilyError,
    FamilySeed,
    candidate,
    only_calls,
    partial_grid,
    single_output,
)
from kernelevo.variation.seeding.op_graph import OpGraph, OpNode, is_ref

_FLOATS = ("float32", "float16", "bfloat16")
_UNARY = {"aten.neg.default": "(-{0})", "aten.abs.default": "tl.abs({0})", "aten.log.default": "tl.log({0})",
          "aten.exp.default": "tl.exp({0})", "aten.sqrt.default": "tl.sqrt({0})",
          "aten.relu.default": "tl.where({0} < 0.0, 0.0, {0})", "aten.clone.default": "{0}"}
_BINARY = {"aten.add.Tensor": "({0} + {1})", "aten.sub.Tensor": "({0} - {1})", "aten.mul.Tensor": "({0} * {1})",
           "aten.div.Tensor": "({0} / {1})", "aten.add.Scalar": "({0} + {1})", "aten.sub.Scalar": "({0} - {1})",
           "aten.rsub.Scalar": "({1} - {0})", "aten.mul.Scalar": "({0} * {1})", "aten.div.Scalar": "({0} / {1})",
           "aten.rsub.Tensor": "({1} - {0})",
           # xlogy(a, b): 0 where a is 0 (and b not NaN), as torch
           "aten.xlogy.Tensor": "tl.where(({0} == 0.0) & ({1} == {1}), 0.0, {0} * tl.log({1}))"}
_CLAMPS = ("aten.clamp.default", "aten.clamp_min.default", "aten.clamp_max.default", "aten.clamp_min_.Tensor",
           "aten.clamp_min.Tensor")
_ROW_REDUCTIONS = ("aten.sum.dim_IntList", "aten.mean.dim", "aten.linalg_vector_norm.default",
                   "aten.norm.ScalarOpt_dim")
_TOTALS = {"aten.mean.default": True, "aten.sum.default": False}


@dataclass
class _Value:
    """A node compiled: its Triton expression and its level (0: a number, 1: per row, 2: per element)."""

    expr: str
    level: int
    stage: int = 0  # the pass that can compute it: 1 + the latest pass of a per-row value it reads


@dataclass
class LossPlan:
    shape: tuple[int, ...]  # S, the elements' shape, at the traced sizes
    inputs: dict[int, str]  # forward's argument position -> "elem" | "row" | "col"
    stages: list[list[tuple[str, str, str]]]  # per pass: (row value name, its accumulated expr, its finish)
    total: str  # the expression the loss sums: per element (level 2) or per row (level 1)
    total_level: int
    mean: bool
    post: list[tuple[str, str]] = field(default_factory=list)  # host factors: ("*", "2.0"), ("/", "inputs[0].shape[0]")

    @property
    def rows(self) -> int:
        return math.prod(self.shape[:-1])


class LossFamily:
    name = "losses"

    def match(self, graph: OpGraph) -> LossPlan | cross_entropy.CrossEntropyPlan | None:
        out = single_output(graph)
        if out is None or out.shape != []:
            return None
        xent = cross_entropy.match(graph, out)
        if xent is not None:
            return xent[0] if only_calls(graph, xent[1]) else None
        try:
            plan, matched = _Compiler(graph).loss(out)
        except _NoMatch:
            return None
        return plan if only_calls(graph, matched) else None

    def seeds(self, plan: LossPlan | cross_entropy.CrossEntropyPlan, graph: OpGraph) -> list[FamilySeed]:
        if isinstance(plan, cross_entropy.CrossEntropyPlan):
            return [FamilySeed(v, cross_entropy.source(plan, graph, v)) for v in cross_entropy.variants(plan)]
        if not plan.shape or plan.shape[-1] == 0:
            raise FamilyError("the loss's elements have no last dimension to tile")
        return [FamilySeed(v, _source(plan, graph, v)) for v in ("persistent", "tiles")]


class _NoMatch(Exception):
    pass


class _Compiler:
    """The graph's ops from the output back, as Triton expressions of the kernel's loaded inputs."""

    def __init__(self, graph: OpGraph) -> None:
        self.graph = graph
        self.matched: set[str] = set()
        self.done: dict[str, _Value] = {}
        # S: the shape of the float input with the most elements (the others per row or per column of it)
        shapes = [tuple(n.shape) for n in graph.nodes if n.kind == "input" and n.shape and n.dtype in _FLOATS]
        self.shape: tuple[int, ...] | None = max(shapes, key=math.prod) if shapes else None
        self.inputs: dict[int, str] = {}
        self.stages: list[list[tuple[str, str, str]]] = []

    def loss(self, out: OpNode) -> tuple[LossPlan, set[str]]:
        node, post = out, []
        while node.target in ("aten.div.Tensor", "aten.mul.Tensor") and self.graph.arg(node, 1) is None:
            post.append(self._factor(node))
            self.matched.add(node.name)
            node = self._ref(node, 0)
        post.reverse()
        mean, value = self._total(node)
        if value.level == 0 or self.shape is None:
            raise _NoMatch
        plan = LossPlan(self.shape, self.inputs, self.stages, value.expr, value.level, mean, post)
        return plan, self.matched

    def _factor(self, node: OpNode) -> tuple[str, str]:
        number = node.args[1]
        key = self.graph.follows.get(f"{node.name}:1")
        if key is not None and not key.startswith("input["):
            raise _NoMatch  # follows an init value or nothing: the host cannot name it
        if not isinstance(number, int | float) or isinstance(number, bool):
            raise _NoMatch
        text = key.replace("input[", "inputs[") if key else repr(float(number))
        return ("/" if node.target == "aten.div.Tensor" else "*"), text

    def _total(self, node: OpNode) -> tuple[bool, _Value]:
        """Whether the loss is a mean, and the value it sums."""
        self.matched.add(node.name)
        if node.target in _TOTALS and len(node.args) == 1 and not node.kwargs:
            return _TOTALS[node.target], self.value(self._ref(node, 0))
        if node.target != "aten.smooth_l1_loss.default" or node.kwargs or len(node.args) > 4:
            raise _NoMatch
        reduction, beta = [*node.args, 1, 1.0][2:4] if len(node.args) == 2 else [*node.args, 1.0][2:4]
        if reduction not in (1, 2) or isinstance(beta, bool) or not isinstance(beta, int | float) or beta <= 0:
            raise _NoMatch  # no reduction (a tensor out), or beta 0 (an L1 loss)
        a, b = self.value(self._ref(node, 0)), self.value(self._ref(node, 1))
        if max(a.level, b.level) < 2:
            raise _NoMatch
        d, beta = f"({a.expr} - {b.expr})", float(beta)
        expr = f"tl.where(tl.abs({d}) < {beta!r}, 0.5 * {d} * {d} / {beta!r}, tl.abs({d}) - 0.5 * {beta!r})"
        return reduction == 1, _Value(expr, 2, max(a.stage, b.stage))

    def _ref(self, node: OpNode, i: int) -> OpNode:
        ref = self.graph.arg(node, i)
        if ref is None:
            raise _NoMatch
        return ref

    def _operand(self, node: OpNode, i: int) -> _Value:
        value = node.args[i] if i < len(node.args) else None
        if is_ref(value):
            return self.value(self.graph.node(value["node"]))
        if isinstance(value, int | float) and not isinstance(value, bool):
            if f"{node.name}:{i}" in self.graph.follows:
                raise _NoMatch  # a size that changes with the variant, inside the expression
            return _Value(repr(float(value)), 0)
        raise _NoMatch

    def value(self, node: OpNode) -> _Value:
        if node.name in self.done:
            return self.done[node.name]
        value = self._compile(node)
        self.done[node.name] = value
        if node.kind == "call":
            self.matched.add(node.name)
        return value

    def _compile(self, node: OpNode) -> _Value:
        if node.kind == "input":
            return self._input(node)
        if node.kind != "call" or (node.kwargs and node.target != "aten.scalar_tensor.default"):
            raise _NoMatch
        if node.target == "aten.scalar_tensor.default":
            number = node.args[0] if node.args else None
            if not isinstance(number, int | float) or isinstance(number, bool):
                raise _NoMatch
            return _Value(repr(float(number)), 0)
        if node.target in _UNARY and len(node.args) == 1:
            a = self._operand(node, 0)
            return _Value(_UNARY[node.target].format(a.expr), a.level, a.stage)
        if node.target in _BINARY and len(node.args) == 2:
            a, b = self._operand(node, 0), self._operand(node, 1)
            return _Value(_BINARY[node.target].format(a.expr, b.expr), max(a.level, b.level), max(a.stage, b.stage))
        if node.target == "aten.pow.Tensor_Scalar" and node.args[1:] == [2]:
            a = self._operand(node, 0)
            return _Value(f"({a.expr} * {a.expr})", a.level, a.stage)
        if node.target in _CLAMPS:
            return self._clamp(node)
        if node.target in _ROW_REDUCTIONS:
            return self._row_reduction(node)
        raise _NoMatch

    def _clamp(self, node: OpNode) -> _Value:
        """NaN kept, as torch.clamp does (tl.maximum would drop it)."""
        a = self._operand(node, 0)
        lo = self._operand(node, 1) if node.target != "aten.clamp_max.default" and node.args[1] is not None else None
        hi_at = 2 if node.target == "aten.clamp.default" else 1 if node.target == "aten.clamp_max.default" else None
        hi = self._operand(node, hi_at) if hi_at is not None and hi_at < len(node.args) \
            and node.args[hi_at] is not None else None
        if (lo is not None and lo.level) or (hi is not None and hi.level):
            raise _NoMatch  # a clamp by tensors: not a loss's
        expr = a.expr
        if lo is not None:
            expr = f"tl.where({expr} < {lo.expr}, {lo.expr}, {expr})"
        if hi is not None:
            expr = f"tl.where({expr} > {hi.expr}, {hi.expr}, {expr})"
        return _Value(expr, a.level, a.stage)

    def _input(self, node: OpNode) -> _Value:
        if node.dtype not in _FLOATS or node.shape is None or node.index is None:
            raise _NoMatch
        shape = tuple(node.shape)
        kind = self._layout(shape)
        if self.inputs.setdefault(node.index, kind) != kind:
            raise _NoMatch
        name = f"in{node.index}"
        return _Value(name, 1 if kind == "row" else 2)

    def _layout(self, shape: tuple[int, ...]) -> str:
        s = self.shape
        if s is None or not s or s[-1] == 1:
            raise _NoMatch
        if shape == s:
            return "elem"
        if shape == (*s[:-1], 1) or (shape == s[:-1] and len(s) > 1):
            return "row"
        if shape == s[-1:] and len(s) > 1:
            return "col"
        raise _NoMatch

    def _row_reduction(self, node: OpNode) -> _Value:
        a = self._operand(node, 0)
        if a.level != 2 or self.shape is None:
            raise _NoMatch
        rank = len(self.shape)
        args = [*node.args, None, None, None][:4]
        if node.target in ("aten.sum.dim_IntList", "aten.mean.dim"):
            dims, keep, acc = args[1], args[2], a.expr
        else:  # the 2-norm (no dtype argument)
            if args[1] not in (2, 2.0) or len(node.args) > 4:
                raise _NoMatch
            dims, keep, acc = args[2], args[3], f"({a.expr} * {a.expr})"
        if not isinstance(dims, list) or [d % rank for d in dims if isinstance(d, int)] != [rank - 1] \
                or keep not in (None, True, False):
            raise _NoMatch
        finish = {"aten.sum.dim_IntList": "{0}", "aten.mean.dim": "{0} / D"}.get(node.target, "tl.sqrt({0})")
        stage = a.stage
        while len(self.stages) <= stage:
            self.stages.append([])
        name = f"r{sum(len(s) for s in self.stages)}"
        self.stages[stage].append((name, acc, finish))
        return _Value(name, 1, stage + 1)


# -- writing ---------------------------------------------------------------------------------
def _pow2(n: int) -> int:
    return 1 << max(0, (max(1, n) - 1).bit_length())


def _loads(plan: LossPlan, expr: str, pad: str) -> list[str]:
    """The loads of the per-element inputs ``expr`` reads, in a tile [BLOCK_M, BLOCK_D]."""
    lines = []
    for i, kind in sorted(plan.inputs.items()):
        if not re.search(rf"\bin{i}\b", expr):
            continue
        if kind == "elem":
            lines.append(f"{pad}in{i} = tl.load(IN{i} + base[:, None] + d[None, :], mask=mask, other=1.0)"
                         ".to(tl.float32)")
        elif kind == "col":
            lines.append(f"{pad}in{i} = tl.load(IN{i} + d[None, :], mask=(d < D)[None, :], other=1.0)"
                         ".to(tl.float32)")
    return lines


def _kernel(plan: LossPlan) -> str:
    """The partial-sum kernel for ``plan``: a program's tiles of rows, each in passes over its columns."""
    ins = ", ".join(f"IN{i}" for i in sorted(plan.inputs))
    body = ["    pid = tl.program_id(0)", "    rows = tl.arange(0, BLOCK_M)", "    cols = tl.arange(0, BLOCK_D)",
            f"    total = tl.zeros([BLOCK_M{', BLOCK_D' if plan.total_level == 2 else ''}], tl.float32)",
            "    for t in range(pid, tl.cdiv(M, BLOCK_M), tl.num_programs(0)):",
            "        m = t * BLOCK_M + rows", "        m_mask = m < M", "        base = m.to(tl.int64) * D"]
    for i, kind in sorted(plan.inputs.items()):
        if kind == "row":
            body.append(f"        in{i} = tl.load(IN{i} + m, mask=m_mask, other=1.0).to(tl.float32)")
    passes: list[list[tuple[str, str]]] = [[(f"acc_{n}", acc) for n, acc, _ in stage] for stage in plan.stages]
    if plan.total_level == 2:
        passes.append([("total", plan.total)])
    for p, accs in enumerate(passes):
        final = plan.total_level == 2 and p == len(passes) - 1
        for name, _ in accs:
            if not final:
                body.append(f"        {name} = tl.zeros([BLOCK_M, BLOCK_D], tl.float32)")
        body += ["        for d0 in range(0, D, BLOCK_D):", "            d = d0 + cols",
                 "            mask = m_mask[:, None] & (d < D)[None, :]"]
        body += _loads(plan, " ".join(e for _, e in accs), "            ")
        for name, expr in accs:
            body.append(f"            {name} += tl.where(mask, {_rows_broadcast(expr, plan)}, 0.0)")
        if not final:
            for n, _, finish in plan.stages[p]:
                body.append(f"        {n} = {finish.format(f'tl.sum(acc_{n}, axis=1)')}")
    if plan.total_level == 1:
        body.append(f"        total += tl.where(m_mask, {plan.total}, 0.0)")
    body.append("    tl.store(PART + pid, tl.sum(total))" if plan.total_level == 1
                else "    tl.store(PART + pid, tl.sum(tl.sum(total, axis=1), axis=0))")
    head = f"@triton.jit\ndef _kev_loss_partial({ins}, PART, M, D, BLOCK_M: tl.constexpr, BLOCK_D: tl.constexpr):\n"
    doc = ('    """A program\'s partial sum of the loss over its tiles of BLOCK_M rows, each in passes of BLOCK_D '
           'columns\n    (a pass per level of per-row values); masked lanes add 0."""\n')
    return "\n\n" + head + doc + "\n".join(body) + "\n\n\n" + _FINISH


def _rows_broadcast(expr: str, plan: LossPlan) -> str:
    """``expr`` with its per-row values (inputs and reductions) broadcast over the tile's columns."""
    row_names = [f"in{i}" for i, k in plan.inputs.items() if k == "row"]
    row_names += [n for stage in plan.stages for n, _, _ in stage]
    if not row_names:
        return expr
    return re.sub(r"\b(" + "|".join(row_names) + r")\b", r"\1[:, None]", expr)


_FINISH = '''@triton.jit
def _kev_loss_finish(PART, OUT, P, scale, BLOCK_P: tl.constexpr):
    """The partial sums added in a fixed order (deterministic), times the mean's and the graph's factors."""
    offs = tl.arange(0, BLOCK_P)
    acc = tl.zeros([BLOCK_P], tl.float32)
    for p0 in range(0, P, BLOCK_P):
        p = p0 + offs
        acc += tl.load(PART + p, mask=p < P, other=0.0)
    tl.store(OUT, tl.sum(acc, axis=0) * scale)
'''


def _source(plan: LossPlan, graph: OpGraph, variant: str) -> str:
    first = min(i for i, k in plan.inputs.items() if k == "elem")
    ins = ", ".join(f"inputs[{i}].contiguous()" for i in sorted(plan.inputs))
    factors = ([f"/ max({'x.numel()' if plan.total_level == 2 else 'm'}, 1)"] if plan.mean else []) + \
        [f"{op} {text}" for op, text in plan.post]
    scale = " ".join(["1.0", *factors])
    block_d = min(2048, _pow2(plan.shape[-1]))
    lines = [f"x = inputs[{first}]", "d = x.shape[-1]", "m = x.numel() // max(d, 1)",
             "out = torch.empty((), device=x.device, dtype=x.dtype)",
             f"block_d = {block_d}", f"block_m = {max(1, min(64, 2048 // block_d))}",
             "tiles = triton.cdiv(m, block_m)"]
    lines += partial_grid(variant)
    lines += ["part = torch.empty((grid,), device=x.device, dtype=torch.float32)",
              f"_kev_loss_partial[(grid,)]({ins}, part, m, d, BLOCK_M=block_m, BLOCK_D=block_d, num_warps=8)",
              f"_kev_loss_finish[(1,)](part, out, grid, {scale}, BLOCK_P=1024, num_warps=4)",
              "return out"]
    doc = (f"The loss family's {variant} kernel (kernelevo.variation.seeding.families.losses): the loss's elementwise "
           f"expression and its reductions in one pass over the inputs, {_DOCS[variant]}, a partial sum per "
           "program added by a second, one-program pass.")
    return candidate(doc, _kernel(plan), graph, [], lines)


_DOCS = {"persistent": "a fixed grid of programs walking tiles of rows",
         "tiles": "a program per tile of rows"}


__all__ = ["LossFamily", "LossPlan"]
