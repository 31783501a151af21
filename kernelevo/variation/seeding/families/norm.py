"""Normalizations: statistics of a row or group, then every element scaled by them.

Matches a reference whose traced graph is one of these over one input, and nothing else:

- ``aten.native_layer_norm`` (``nn.LayerNorm``, ``F.layer_norm``), affine weight and bias of the
  normalized shape or none;
- ``aten.native_group_norm`` (``nn.GroupNorm``), affine per channel or none;
- ``aten.native_batch_norm`` in training mode (batch statistics: ``nn.BatchNorm*d`` as the spec
  builds it, never ``.eval()``), affine per channel or none; and the view of ``(B, C, ...)`` as
  ``(1, B*C, ...)`` around it with no affine that ``nn.InstanceNorm*d`` traces to;
- ``x / sqrt(mean(x**2, dims, keepdim) + eps)`` (or ``x * rsqrt(...)``: RMSNorm),
  ``x / sum(|x|, dims, keepdim)`` (L1) and ``x / norm(x, 2, dims, keepdim)`` (L2, also over every
  dimension: the Frobenius norm), over trailing dimensions or a middle run of them.

Why it is faster (bytes moved, for N elements of 4 bytes): inductor's looped reductions read a
row for its statistics and again to normalize, 8N read + 4N written, and a row that fills no more
than a few programs leaves most of the GPU idle. The structures written here:

- ``resident`` (rows up to 16,384 elements): one program holds its row in registers between the
  statistics and the normalization: 4N read + 4N written, the copy roofline;
- ``looped``: one program per row in chunks of BLOCK, two passes; the second reads a row the first
  just left in L2 (a row up to a few MB), so DRAM sees about 4N + 4N;
- ``split`` (few huge rows or groups: LayerNorm over 4M elements, BatchNorm's channels): each
  row's statistics from many programs (one chunk each, combined with Chan's formula in a second,
  tiny pass), then every chunk normalized by its own program: all SMs busy at 8N read + 4N written,
  where one program per row would leave the GPU to 16 programs;
- ``l2`` (split's rows, where a row fits in half an H100's L2): the same three kernels launched chunk
  of rows by chunk of rows (L2_CHUNK_KIB of input each, tunable), so that a chunk's normalization
  re-reads what its statistics read a few microseconds before, from L2: DRAM sees 4N read + 4N
  written (the copy floor, where split's 8N + 4N caps it at 2/3), for three launches per chunk
  (LayerNorm's 16 rows of 16 MiB: 48 launches, a microsecond or two of gap each). It is correct under
  any schedule: the launches of a stream run in order, and L2 residency decides only the speed. (A
  single persistent kernel that normalizes group g while reducing g + 1 would need every program
  to wait for g's statistics: a grid-wide barrier Triton does not have);
- ``columns`` (a middle dimension, RMSNorm over channels): a tile of neighbouring columns per
  program, so that each load is coalesced although the reduced elements lie H*W apart.

A training BatchNorm's update of its running statistics (buffers the output does not read) is not
made: the candidate's output is the reference's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kernelevo.variation.seeding.families.family import FamilyError, FamilySeed, candidate, only_calls, single_output
from kernelevo.variation.seeding.families.norm_kernels import KERNELS
from kernelevo.variation.seeding.inductor_host import state_path
from kernelevo.variation.seeding.op_graph import OpGraph, OpNode

RESIDENT_LIMIT = 16384  # elements of a row one program holds in registers (fp32: 64 KB over up to 16 warps)
# the ``l2`` variant: a row (group, channel) is offered it where it fits in half the L2 of an H100 (50 MiB; an
# H200 has 60), the other half for the output it writes; L2_CHUNK_KIB (tunable) is its chunk's input, 24 MiB
L2_BYTES = 50 << 20
L2_CHUNK_KIB = 24576
_STATS = {"meanvar": 0, "rms": 1, "l1": 2, "l2": 3}
_BATCH_NORMS = ("aten.native_batch_norm.default", "aten._native_batch_norm_legit.default")


@dataclass(frozen=True)
class NormPlan:
    """What a matched normalization computes, in the family's terms."""

    kind: str  # "layer" | "group" | "batch" | "instance" | "rms" | "l1" | "l2": for the seed's name and docs
    stat: str  # a key of _STATS
    layout: str  # "rows" (trailing dims), "segments" (BatchNorm's channels), "columns" (a middle run of dims)
    x: int  # the input's position in forward's arguments
    shape: tuple[int, ...]  # its shape at the traced variant's sizes
    first: int  # the first normalized dim (rows: every dim from it on; columns: up to ``last``)
    last: int
    eps: float
    weight: str | None = None  # parameter names
    bias: str | None = None
    groups: str = "1"  # GroupNorm's groups: a literal, or the init value it follows ("init[0]")

    group_count: int = 1  # GroupNorm's groups at the traced sizes

    @property
    def rows(self) -> int:
        """Rows (groups, channels) at the traced sizes."""
        if self.layout == "segments":
            return self.shape[1]
        return math.prod(self.shape[:self.first]) * self.group_count

    @property
    def row_size(self) -> int:
        """Elements per row at the traced sizes."""
        return math.prod(self.shape) // max(1, self.rows)


class NormFamily:
    name = "norm"

    def match(self, graph: OpGraph) -> NormPlan | None:
        out = single_output(graph)
        if out is None:
            return None
        for matcher in (_native_norm, _instance_norm, _explicit_norm):
            found = matcher(graph, out)
            if found is not None and only_calls(graph, found[1]):
                return found[0]
        return None

    def seeds(self, plan: NormPlan, graph: OpGraph) -> list[FamilySeed]:
        if plan.groups == "":
            raise FamilyError("GroupNorm's groups differ between variants and follow no get_init_inputs() value")
        variants = {"rows": ["resident", "looped", "split"], "segments": ["looped", "split"],
                    "columns": ["columns"]}[plan.layout]
        if plan.layout == "rows" and plan.row_size > RESIDENT_LIMIT:
            variants.remove("resident")
        if "split" in variants and plan.row_size * 4 <= L2_BYTES // 2:  # fp32 bytes (half types: within too)
            variants.append("l2")
        return [FamilySeed(v, _source(plan, graph, v)) for v in variants]


# -- matching --------------------------------------------------------------------------------
def _input(graph: OpGraph, node: OpNode | None) -> OpNode | None:
    """``node`` if it is a floating-point input of forward."""
    if node is None or node.kind != "input" or node.dtype not in ("float32", "float16", "bfloat16"):
        return None
    return node


def _param(graph: OpGraph, node: OpNode, i: int, shape: list[int]) -> str | bool | None:
    """The parameter at argument ``i`` (None where the argument is None); False where it is anything else
    or has another shape than ``shape``: an affine layout the family does not take."""
    if i >= len(node.args) or node.args[i] is None:
        return None
    ref = graph.arg(node, i)
    if ref is None or ref.kind != "state" or ref.shape != shape:
        return False
    return ref.state


def _affine_params(graph: OpGraph, node: OpNode, at: int, shape: list[int]) -> tuple[str | None, str | None] | None:
    """The weight and bias at arguments ``at`` and ``at + 1``, each a parameter of ``shape`` or None (a bias
    needs a weight); None where either is anything else."""
    weight, bias = _param(graph, node, at, shape), _param(graph, node, at + 1, shape)
    if weight is False or bias is False or (bias and not weight):
        return None
    return (weight if isinstance(weight, str) else None), (bias if isinstance(bias, str) else None)


def _item(graph: OpGraph, node: OpNode, out: OpNode) -> bool:
    """Whether ``out`` is ``node``'s first result (a norm's output, beside its statistics)."""
    return out.target == "getitem" and out.args == [{"node": node.name}, 0]


def _native_norm(graph: OpGraph, out: OpNode) -> tuple[NormPlan, set[str]] | None:
    node = graph.arg(out, 0) if out.target == "getitem" else None
    if node is None or not _item(graph, node, out):
        return None
    x = _input(graph, graph.arg(node, 0))
    if x is None or x.shape is None:
        return None
    shape, rank = tuple(x.shape), len(x.shape)
    matched = {out.name, node.name}
    if node.target == "aten.native_layer_norm.default":
        normalized = node.args[1]
        first = rank - len(normalized)
        params = _affine_params(graph, node, 2, list(shape[first:]))
        if params is None:
            return None
        return NormPlan("layer", "meanvar", "rows", x.index or 0, shape, first, rank - 1, float(node.args[4]),
                        *params), matched
    if node.target == "aten.native_group_norm.default" and rank >= 2:
        params = _affine_params(graph, node, 1, [shape[1]])
        if params is None:
            return None
        groups = graph.follows.get(f"{node.name}:6", str(node.args[6]))
        return NormPlan("group", "meanvar", "rows", x.index or 0, shape, 1, rank - 1, float(node.args[7]),
                        *params, groups, int(node.args[6])), matched
    if node.target in _BATCH_NORMS and rank >= 2 and node.args[5] is True:
        params = _affine_params(graph, node, 1, [shape[1]])
        if params is None:
            return None
        return NormPlan("batch", "meanvar", "segments", x.index or 0, shape, 1, rank - 1, float(node.args[7]),
                        *params), matched
    return None


def _instance_norm(graph: OpGraph, out: OpNode) -> tuple[NormPlan, set[str]] | None:
    """``nn.InstanceNorm*d`` without affine: x viewed as (1, B*C, ...), a training BatchNorm, viewed back."""
    if out.target != "aten.view.default":
        return None
    item = graph.arg(out, 0)
    node = graph.arg(item, 0) if item is not None and item.target == "getitem" else None
    if item is None or node is None or node.target not in _BATCH_NORMS or not _item(graph, node, item) \
            or node.args[5] is not True or any(a is not None for a in node.args[1:5]):
        return None
    view = graph.arg(node, 0)
    x = _input(graph, graph.arg(view, 0)) if view is not None and view.target == "aten.view.default" else None
    if x is None or x.shape is None or len(x.shape) < 3 or out.shape != x.shape:
        return None
    if view is None or view.shape != [1, x.shape[0] * x.shape[1], *x.shape[2:]]:
        return None
    return (NormPlan("instance", "meanvar", "rows", x.index or 0, tuple(x.shape), 2, len(x.shape) - 1,
                     float(node.args[7])), {out.name, item.name, node.name, view.name})


def _dims(value: object, rank: int) -> tuple[int, int] | None:
    """The first and last of a contiguous run of reduced dims (None or [] : all of them)."""
    if value is None or value == []:
        return 0, rank - 1
    if not isinstance(value, list) or not all(isinstance(d, int) for d in value):
        return None
    dims = sorted(d % rank for d in value)
    return (dims[0], dims[-1]) if dims == list(range(dims[0], dims[-1] + 1)) else None


def _square_of(graph: OpGraph, node: OpNode | None, x: OpNode) -> bool:
    if node is None:
        return False
    if node.target == "aten.pow.Tensor_Scalar":
        return node.args[0] == {"node": x.name} and node.args[1] == 2
    return node.target == "aten.mul.Tensor" and node.args[:2] == [{"node": x.name}] * 2


def _reduction(graph: OpGraph, node: OpNode | None, x: OpNode) -> tuple[str, tuple[int, int], set[str]] | None:
    """The statistic ``node`` is of ``x`` (kept dims), as (stat, dims, its nodes): sum|x| is l1, the L2 norm l2,
    sqrt(sum x^2) l2, mean(x^2) + eps is "ms" (RMS's, eps read by the caller)."""
    if node is None or x.shape is None:
        return None
    rank = len(x.shape)
    args = [*node.args, None, None, None, None]
    if node.target == "aten.linalg_vector_norm.default" and args[0] == {"node": x.name} and args[1] in (None, 2, 2.0) \
            and (args[3] is True or args[2] in (None, [])) and args[4] is None and not node.kwargs:
        dims = _dims(args[2], rank)
        return ("l2", dims, {node.name}) if dims else None
    keep = args[2]
    inner = graph.arg(node, 0)
    if node.target not in ("aten.sum.dim_IntList", "aten.mean.dim") or keep is not True or inner is None:
        return None
    dims = _dims(node.args[1], rank)
    if dims is None or len(node.args) > 3 or node.kwargs:
        return None
    if node.target == "aten.sum.dim_IntList" and inner.target == "aten.abs.default" \
            and inner.args == [{"node": x.name}]:
        return "l1", dims, {node.name, inner.name}
    if _square_of(graph, inner, x):
        return ("sumsq" if node.target == "aten.sum.dim_IntList" else "ms"), dims, {node.name, inner.name}
    return None


def _explicit_norm(graph: OpGraph, out: OpNode) -> tuple[NormPlan, set[str]] | None:
    """x / s or x * (1 / s) with s an L1, L2 or RMS statistic of x over kept dims."""
    if out.target not in ("aten.div.Tensor", "aten.mul.Tensor") or len(out.args) != 2:
        return None
    x = _input(graph, graph.arg(out, 0))
    s = graph.arg(out, 1)
    if x is None or s is None or x.shape is None or out.shape != x.shape:
        return None
    matched = {out.name, s.name}
    eps = 0.0
    if out.target == "aten.mul.Tensor":  # x * rsqrt(mean(x^2) + eps)
        if s.target != "aten.rsqrt.default":
            return None
        s = graph.arg(s, 0)
    elif s.target == "aten.sqrt.default":
        s = graph.arg(s, 0)
    elif s.target != "aten.linalg_vector_norm.default" and s.target != "aten.sum.dim_IntList":
        return None
    if s is None:
        return None
    matched.add(s.name)
    if s.target == "aten.add.Tensor" and isinstance(s.args[1], float | int) and not isinstance(s.args[1], bool):
        eps = float(s.args[1])
        s = graph.arg(s, 0)
    found = _reduction(graph, s, x)
    if found is None:
        return None
    stat, dims, nodes = found
    sqrt_taken = out.target == "aten.mul.Tensor" or graph.node(out.args[1]["node"]).target == "aten.sqrt.default"
    kinds = {("l1", False, False): "l1", ("l2", False, False): "l2", ("sumsq", True, False): "l2",
             ("ms", True, True): "rms", ("ms", True, False): "rms"}
    kind = kinds.get((stat, sqrt_taken, eps > 0))
    if kind is None or (kind != "rms" and eps):
        return None
    first, last = dims
    layout = "rows" if last == len(x.shape) - 1 else "columns"
    return (NormPlan(kind, kind, layout, x.index or 0, tuple(x.shape), first, last, eps), matched | nodes)


# -- writing ---------------------------------------------------------------------------------
def _warps(block: int) -> int:
    return 4 if block <= 2048 else 8 if block <= 8192 else 16


def _affine(plan: NormPlan) -> tuple[int, str, str, list[str]]:
    """(affine mode, weight, bias, lines that set G, CPG, HWA) in the forward."""
    w = state_path(plan.weight) if plan.weight else "x"
    b = state_path(plan.bias) if plan.bias else w
    if not plan.weight:
        return 0, "x", "x", ["g, cpg, hwa = 1, 1, 1"]
    if plan.kind == "layer":
        return 1, w, b, ["g, cpg, hwa = 1, 1, 1"]
    if plan.kind == "group":
        return 2, w, b, ["g, cpg, hwa = groups, x.shape[1] // groups, math.prod(x.shape[2:])"]
    return 2, w, b, ["g, cpg, hwa = x.shape[1], 1, x.numel() // x.shape[1]"]  # batch: the row is its channel


def _source(plan: NormPlan, graph: OpGraph, variant: str) -> str:
    init = [f"self.groups = {plan.groups}"] if plan.kind == "group" else []
    lines = [f"x = inputs[{plan.x}].contiguous()", "y = torch.empty_like(x)"]
    if plan.kind == "group":
        lines.append("groups = self.groups")
    stat = _STATS[plan.stat]
    if plan.layout == "columns":
        lines += [f"b, c, n = math.prod(x.shape[:{plan.first}]), math.prod(x.shape[{plan.first}:{plan.last + 1}]), "
                  f"math.prod(x.shape[{plan.last + 1}:])",
                  "block_n = 256",
                  f"_kev_norm_columns[(triton.cdiv(n, block_n), b)](x, y, c, n, {plan.eps!r}, stat={stat}, "
                  "BLOCK_C=8, BLOCK_N=block_n, num_warps=4)",
                  "return y"]
        return _module(plan, graph, variant, init, lines)
    affine, w, b, groups = _affine(plan)
    lines += groups
    if plan.layout == "rows":
        rows = f"math.prod(x.shape[:{plan.first}])" + (" * groups" if plan.kind == "group" else "")
        lines += [f"m = {rows}", "r = x.numel() // max(m, 1)",
                  "segs, inner, row_stride, seg_stride = 1, r, r, 0"]
    else:
        lines += ["m, segs = x.shape[1], x.shape[0]", "inner = x.numel() // max(m * segs, 1)",
                  "row_stride, seg_stride = inner, m * inner"]
    common = f"{w}, {b}"
    flags = f"affine={affine}, has_bias={bool(plan.bias)}"
    looped_block = min(4096, _pow2(plan.row_size))
    looped = (f"_kev_norm_looped[(m,)](x, y, {common}, segs, inner, row_stride, seg_stride, g, cpg, hwa, "
              f"{plan.eps!r}, stat={stat}, {flags}, BLOCK={looped_block}, num_warps={_warps(looped_block)})")
    if variant == "resident":
        block = _pow2(plan.row_size)
        lines += [f"if r <= {RESIDENT_LIMIT}:  # the row in registers; a longer one (another variant's) loops",
                  "    block = triton.next_power_of_2(r)",
                  f"    _kev_norm_resident[(m,)](x, y, {common}, r, g, cpg, hwa, {plan.eps!r}, stat={stat}, "
                  f"{flags}, BLOCK=block, num_warps={_warps(block)})",
                  "else:",
                  f"    {looped}"]
    elif variant == "looped":
        lines.append(looped)
    else:
        lines += _split_lines(plan, stat, common, flags, l2=variant == "l2")
    lines.append("return y")
    return _module(plan, graph, variant, init, lines)


def _split_lines(plan: NormPlan, stat: int, common: str, flags: str, *, l2: bool) -> list[str]:
    """Split statistics, then the normalization: over every row at once, or (``l2``) chunk of rows by chunk
    of rows, each chunk's three launches back to back so that its normalization re-reads it from L2."""
    lines = ["stats_block = 4096", "apply_block = 2048",
             "chunks = triton.cdiv(inner, stats_block)",
             "parts = segs * chunks",
             "p_n, p_mean, p_m2 = (torch.empty((m, parts), device=x.device, dtype=torch.float32) for _ in range(3))",
             "shift, scale = (torch.empty((m,), device=x.device, dtype=torch.float32) for _ in range(2))",
             "apply_chunks = triton.cdiv(inner, apply_block)"]
    if l2:
        lines += [f"L2_CHUNK_KIB = {L2_CHUNK_KIB}  # input read per chunk of rows: with its output's writes, "
                  "within an H100's 50 MiB L2",
                  "rows_per = max(1, L2_CHUNK_KIB * 1024 // max(1, segs * inner * x.element_size()))",
                  "for m0 in range(0, m, rows_per):",
                  "    rows = min(rows_per, m - m0)"]
        at, pad = ("rows", "m0"), "    "
    else:
        at, pad = ("m", "0"), ""
    rows, m0 = at
    lines += [f"{pad}_kev_norm_partial[({rows}, parts)](x, p_n, p_mean, p_m2, {m0}, inner, row_stride, seg_stride, "
              f"chunks, stat={stat}, BLOCK=stats_block, num_warps=8)",
              f"{pad}_kev_norm_finish[({rows},)](p_n, p_mean, p_m2, shift, scale, {m0}, parts, {plan.eps!r}, "
              f"stat={stat}, BLOCK_P=256, num_warps=4)",
              f"{pad}_kev_norm_apply[({rows}, segs * apply_chunks)](x, y, {common}, shift, scale, {m0}, inner, "
              f"row_stride, seg_stride, apply_chunks, g, cpg, hwa, {flags}, BLOCK=apply_block, num_warps=4)"]
    return lines


def _pow2(n: int) -> int:
    return 1 << max(0, (max(1, n) - 1).bit_length())


_DOCS = {
    "resident": "one program per row, the row kept in registers between its statistics and its normalization",
    "looped": "one program per row in chunks, a pass for the statistics and a second (from L2) to normalize",
    "split": "split statistics: many programs per row each reduce a chunk, a small pass combines them, then "
             "every chunk is normalized by a program of its own",
    "columns": "a tile of neighbouring columns per program, reduced over the middle dimension in two passes",
    "l2": "split statistics chunk of rows by chunk of rows, each chunk normalized right after its statistics, "
          "while it is still in L2: DRAM sees the input read once",
}


def _module(plan: NormPlan, graph: OpGraph, variant: str, init: list[str], lines: list[str]) -> str:
    doc = (f"The normalization family's {variant} kernel ({plan.kind} norm, "
           f"kernelevo.variation.seeding.families.norm): "
           f"{_DOCS[variant]}.")
    return candidate(doc, KERNELS, graph, init, lines)


__all__ = ["RESIDENT_LIMIT", "NormFamily", "NormPlan"]
