"""Row reductions: sum, mean, max and min over a run of dimensions, and softmax / log-softmax over rows.

Matches a reference whose traced graph is one of these over one input, and nothing else:
``aten.sum.dim_IntList``, ``aten.mean.dim``, ``aten.amax``, ``aten.amin`` (kept dims or not), the
values of ``aten.max.dim`` / ``aten.min.dim`` (not their indices), over a contiguous run of
dimensions; ``aten._softmax`` / ``aten._log_softmax`` over the last dimension. No dtype argument.

Why it is faster (bytes moved): a reduction must read its N input elements once, so every structure
here reads 4N bytes; what differs is how many programs share the work.

- ``row``: one program per row in chunks: enough programs where rows are many;
- ``persistent``: a fixed grid (PROGRAMS, a tunable constant) walking tiles of BLOCK_M rows, so that
  short rows fill a tile's lanes and a million rows cost one wave of programs;
- ``split``: few long rows (a mean over 4M elements) split over many programs, each reducing a chunk,
  and a second, tiny pass over the partial results: every SM reads, not one per row;
- ``columns``: a middle dimension (sum over dim 1 of [B, R, N]) reduced by tiles of neighbouring
  columns, so each load is coalesced although the reduced elements lie N apart;
- softmax ``resident`` (rows up to 16,384): the row read once into registers and written once,
  4N + 4N bytes, where a looped softmax reads it two or three times; ``online``: longer rows in two
  passes, the maximum and the sum of exponentials kept together in the first (online softmax).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kernelevo.variation.seeding.families.family import FamilySeed, candidate, only_calls, single_output
from kernelevo.variation.seeding.families.reduce_kernels import KERNELS
from kernelevo.variation.seeding.op_graph import OpGraph, OpNode

RESIDENT_LIMIT = 16384  # softmax: elements of a row one program holds in registers
_OPS = {"aten.sum.dim_IntList": "sum", "aten.mean.dim": "mean", "aten.amax.default": "max",
        "aten.amin.default": "min", "aten.max.dim": "max", "aten.min.dim": "min"}
_CODES = {"sum": 0, "mean": 1, "max": 2, "min": 3}
_SOFTMAX = {"aten._softmax.default": "softmax", "aten._log_softmax.default": "log_softmax"}


@dataclass(frozen=True)
class ReducePlan:
    op: str  # "sum" | "mean" | "max" | "min" | "softmax" | "log_softmax"
    layout: str  # "rows" (trailing dims) | "columns" (a middle run of dims)
    x: int  # the input's position in forward's arguments
    shape: tuple[int, ...]  # at the traced variant's sizes
    first: int  # the reduced dims, first to last
    last: int
    keepdim: bool

    @property
    def row_size(self) -> int:
        return math.prod(self.shape[self.first:self.last + 1])

    @property
    def rows(self) -> int:
        return math.prod(self.shape) // max(1, self.row_size)


class ReduceFamily:
    name = "reduce"

    def match(self, graph: OpGraph) -> ReducePlan | None:
        out = single_output(graph)
        if out is None:
            return None
        found = _softmax(graph, out) or _reduction(graph, out)
        return found[0] if found is not None and only_calls(graph, found[1]) else None

    def seeds(self, plan: ReducePlan, graph: OpGraph) -> list[FamilySeed]:
        if plan.op in _SOFTMAX.values():
            variants = ["resident", "online"] if plan.row_size <= RESIDENT_LIMIT else ["online"]
            return [FamilySeed(v, _softmax_source(plan, graph, v)) for v in variants]
        variants = ["columns"] if plan.layout == "columns" else ["row", "persistent", "split"]
        return [FamilySeed(v, _reduce_source(plan, graph, v)) for v in variants]


# -- matching --------------------------------------------------------------------------------
def _x(graph: OpGraph, node: OpNode) -> OpNode | None:
    x = graph.arg(node, 0)
    if x is None or x.kind != "input" or x.shape is None or not x.shape \
            or x.dtype not in ("float32", "float16", "bfloat16"):
        return None
    return x


def _softmax(graph: OpGraph, out: OpNode) -> tuple[ReducePlan, set[str]] | None:
    op = _SOFTMAX.get(out.target)
    x = _x(graph, out) if op else None
    if op is None or x is None or x.shape is None or out.args[2] is not False or out.kwargs:
        return None
    rank = len(x.shape)
    if int(out.args[1]) % rank != rank - 1:
        return None
    return ReducePlan(op, "rows", x.index or 0, tuple(x.shape), rank - 1, rank - 1, True), {out.name}


def _reduction(graph: OpGraph, out: OpNode) -> tuple[ReducePlan, set[str]] | None:
    node, matched = out, {out.name}
    if out.target == "getitem":  # max.dim / min.dim: their values, not their indices
        node = graph.arg(out, 0) or out
        if node.target not in ("aten.max.dim", "aten.min.dim") or out.args[1] != 0:
            return None
        matched.add(node.name)
    op = _OPS.get(node.target)
    x = _x(graph, node) if op else None
    if op is None or x is None or x.shape is None or node.kwargs or len(node.args) > 3:
        return None
    rank = len(x.shape)
    dims_arg = node.args[1] if len(node.args) > 1 else []
    dims_list = [dims_arg] if isinstance(dims_arg, int) else dims_arg
    if not isinstance(dims_list, list) or not all(isinstance(d, int) for d in dims_list):
        return None
    dims = sorted(d % rank for d in dims_list) if dims_list else list(range(rank))
    if dims != list(range(dims[0], dims[-1] + 1)):
        return None
    keepdim = bool(node.args[2]) if len(node.args) > 2 else False
    layout = "rows" if dims[-1] == rank - 1 else "columns"
    return ReducePlan(op, layout, x.index or 0, tuple(x.shape), dims[0], dims[-1], keepdim), matched


# -- writing ---------------------------------------------------------------------------------
def _pow2(n: int) -> int:
    return 1 << max(0, (max(1, n) - 1).bit_length())


def _out_shape(plan: ReducePlan) -> str:
    kept = f" + (1,) * {plan.last - plan.first + 1}" if plan.keepdim else ""
    return f"tuple(x.shape[:{plan.first}]){kept} + tuple(x.shape[{plan.last + 1}:])"


def _reduce_source(plan: ReducePlan, graph: OpGraph, variant: str) -> str:
    op = _CODES[plan.op]
    lines = [f"x = inputs[{plan.x}].contiguous()", f"out_shape = {_out_shape(plan)}",
             f"r = math.prod(x.shape[{plan.first}:{plan.last + 1}])",
             f"b, n = math.prod(x.shape[:{plan.first}]), math.prod(x.shape[{plan.last + 1}:])",
             "out = torch.empty((b * n,), device=x.device, dtype=x.dtype)"]
    block = min(4096, _pow2(plan.row_size))
    if variant == "columns":
        lines += ["block_n = 128",
                  f"_kev_reduce_columns[(triton.cdiv(n, block_n), b)](x, out, r, n, op={op}, BLOCK_R=8, "
                  "BLOCK_N=block_n, num_warps=4)"]
    elif variant == "row":
        lines.append(f"_kev_reduce_row[(b,)](x, out, r, op={op}, BLOCK={block}, "
                     f"num_warps={4 if block <= 2048 else 8})")
    elif variant == "persistent":
        lines += ["PROGRAMS = 1056  # a few waves of programs on a GPU of about 132 SMs",
                  "block_m = 4",
                  "grid = (max(1, min(PROGRAMS, triton.cdiv(b, block_m))),)",
                  f"_kev_reduce_persistent[grid](x, out, b, r, op={op}, BLOCK_M=block_m, "
                  f"BLOCK_R={min(1024, block)}, num_warps=4)"]
    else:
        lines += ["block = 4096",
                  "parts = triton.cdiv(r, block)",
                  "partial = torch.empty((b, parts), device=x.device, dtype=torch.float32)",
                  f"_kev_reduce_partial[(b, parts)](x, partial, r, op={op}, BLOCK=block, num_warps=8)",
                  f"_kev_reduce_finish[(b,)](partial, out, parts, r, op={op}, BLOCK_P=256, num_warps=4)"]
    lines.append("return out.view(out_shape)")
    return _module(plan, graph, variant, lines)


def _softmax_source(plan: ReducePlan, graph: OpGraph, variant: str) -> str:
    kind = 0 if plan.op == "softmax" else 1
    block = min(4096, _pow2(plan.row_size))
    online = (f"_kev_softmax_online[(m,)](x, y, r, kind={kind}, BLOCK={block}, "
              f"num_warps={4 if block <= 2048 else 8})")
    lines = [f"x = inputs[{plan.x}].contiguous()", "y = torch.empty_like(x)", "r = x.shape[-1]",
             "m = x.numel() // max(r, 1)"]
    if variant == "resident":
        resident = _pow2(plan.row_size)
        lines += [f"if r <= {RESIDENT_LIMIT}:  # the row in registers; a longer one (another variant's) loops",
                  "    block = triton.next_power_of_2(r)",
                  f"    _kev_softmax_resident[(m,)](x, y, r, kind={kind}, BLOCK=block, "
                  f"num_warps={4 if resident <= 2048 else 8 if resident <= 8192 else 16})",
                  "else:", f"    {online}"]
    else:
        lines.append(online)
    lines.append("return y")
    return _module(plan, graph, variant, lines)


_DOCS = {
    "row": "one program per row in chunks",
    "persistent": "a fixed grid of programs walking tiles of rows",
    "split": "each row split over many programs, their partial results reduced by a second small pass",
    "columns": "tiles of neighbouring columns reduced over the middle dimension",
    "resident": "one program per row, the row read once into registers and written once",
    "online": "one program per row, an online maximum and sum in a first pass, the output in a second",
}


def _module(plan: ReducePlan, graph: OpGraph, variant: str, lines: list[str]) -> str:
    doc = (f"The row-reduction family's {variant} kernel ({plan.op}, kernelevo.variation.seeding.families.reduce): "
           f"{_DOCS[variant]}.")
    return candidate(doc, KERNELS, graph, [], lines)


__all__ = ["RESIDENT_LIMIT", "ReduceFamily", "ReducePlan"]
