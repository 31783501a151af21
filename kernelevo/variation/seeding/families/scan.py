"""Scans: cumulative sums and products along rows, from either end, of an input or of an input times a mask.

Matches a reference whose traced graph is, over the last dimension and nothing else:
``aten.cumsum`` / ``aten.cumprod`` (no dtype argument) of a floating-point input, or of
``aten.mul.Tensor`` of it and a second input of its shape (a bool mask: masked cumsum); either one
between ``aten.flip`` of that dimension before and after (a reverse scan).

Why it is faster (bytes moved): a scan must read its input once and write its output once, 4N + 4N.

- ``rows``: BLOCK_M rows per program, each walked chunk by chunk, a chunk scanned in registers and
  offset by the carry of the chunks before it; the flips and the mask's product are folded into the
  loads (a reverse scan walks its row from the end), where the reference writes and re-reads the
  flipped and the masked tensors;
- ``chunked`` (fewer rows than programs to fill a GPU: a few long rows): every chunk of every row gets
  a program. A first pass writes each chunk's total; the second gives each chunk the combined totals
  before it and scans it: 8N read (the second read from L2 where the rows fit), 4N written, with every
  SM busy. A single-pass scan with decoupled look-back (each chunk publishing its total, and its
  inclusive prefix once known, for the next to poll) would read 4N, but it needs a program to spin
  on a flag another program sets: Triton gives no ordering of programs' starts nor a fence to order
  the flag after the data, so such a kernel can hang or read a stale prefix; the two passes are
  correct under any schedule.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kernelevo.variation.seeding.families.family import FamilySeed, candidate, only_calls, single_output
from kernelevo.variation.seeding.families.scan_kernels import KERNELS
from kernelevo.variation.seeding.op_graph import OpGraph, OpNode

CHUNKED_ROWS = 1024  # rows below which every chunk of a row gets a program of its own (chunked)
_SCANS = {"aten.cumsum.default": "sum", "aten.cumprod.default": "prod"}
_FLOATS = ("float32", "float16", "bfloat16")


@dataclass(frozen=True)
class ScanPlan:
    op: str  # "sum" | "prod"
    x: int  # the input's position in forward's arguments
    mask: int | None  # the mask's position, where each element is first multiplied by it
    reverse: bool
    shape: tuple[int, ...]  # at the traced sizes

    @property
    def rows(self) -> int:
        return math.prod(self.shape[:-1])


class ScanFamily:
    name = "scan"

    def match(self, graph: OpGraph) -> ScanPlan | None:
        out = single_output(graph)
        if out is None:
            return None
        found = _scan(graph, out)
        return found[0] if found is not None and only_calls(graph, found[1]) else None

    def seeds(self, plan: ScanPlan, graph: OpGraph) -> list[FamilySeed]:
        variants = ["rows", "chunked"] if plan.rows < CHUNKED_ROWS else ["rows"]
        return [FamilySeed(v, _source(plan, graph, v)) for v in variants]


# -- matching --------------------------------------------------------------------------------
def _last_dim(dims: object, rank: int) -> bool:
    if isinstance(dims, list) and len(dims) == 1:
        dims = dims[0]
    return isinstance(dims, int) and not isinstance(dims, bool) and dims % rank == rank - 1


def _scan(graph: OpGraph, out: OpNode) -> tuple[ScanPlan, set[str]] | None:
    node, matched, reverse = out, {out.name}, False
    if out.target == "aten.flip.default":
        node = graph.arg(out, 0) or out
        matched.add(node.name)
        reverse = True
    op = _SCANS.get(node.target)
    if op is None or node.kwargs or len(node.args) != 2 or node.shape is None or not node.shape:
        return None
    rank = len(node.shape)
    if not _last_dim(node.args[1], rank) or (reverse and not _last_dim(out.args[1], rank)):
        return None
    x = graph.arg(node, 0)
    if reverse:
        if x is None or x.target != "aten.flip.default" or not _last_dim(x.args[1], rank):
            return None
        matched.add(x.name)
        x = graph.arg(x, 0)
    mask = None
    if x is not None and x.target == "aten.mul.Tensor" and not x.kwargs:
        matched.add(x.name)
        a, b = graph.arg(x, 0), graph.arg(x, 1)
        if a is None or b is None or a.kind != "input" or b.kind != "input" or a.shape != b.shape:
            return None
        if b.dtype not in (*_FLOATS, "bool"):
            return None
        x, mask = a, b.index
    if x is None or x.kind != "input" or x.dtype not in _FLOATS or x.shape != node.shape:
        return None
    return ScanPlan(op, x.index or 0, mask, reverse, tuple(node.shape)), matched


# -- writing ---------------------------------------------------------------------------------
def _pow2(n: int) -> int:
    return 1 << max(0, (max(1, n) - 1).bit_length())


def _source(plan: ScanPlan, graph: OpGraph, variant: str) -> str:
    op = 0 if plan.op == "sum" else 1
    mask = f"inputs[{plan.mask}].contiguous()" if plan.mask is not None else "x"
    flags = f"op={op}, masked={plan.mask is not None}, reverse={plan.reverse}"
    lines = [f"x = inputs[{plan.x}].contiguous()", f"mask = {mask}", "y = torch.empty_like(x)",
             "r = x.shape[-1]", "m = x.numel() // max(r, 1)"]
    block = min(2048, _pow2(plan.shape[-1]))
    if variant == "rows":
        lines += [f"block_m = {max(1, min(16, 1024 // block))}",
                  f"_kev_scan_rows[(triton.cdiv(m, block_m),)](x, mask, y, m, r, {flags}, BLOCK_M=block_m, "
                  f"BLOCK={block}, num_warps=4)"]
    else:
        lines += ["block = 2048", "chunks = triton.cdiv(r, block)",
                  "part = torch.empty((m, chunks), device=x.device, dtype=torch.float32)",
                  f"_kev_scan_totals[(m, chunks)](x, mask, part, r, chunks, op={op}, "
                  f"masked={plan.mask is not None}, BLOCK=block, num_warps=4)",
                  f"_kev_scan_chunks[(m, chunks)](x, mask, y, part, r, chunks, {flags}, BLOCK=block, BLOCK_P=256, "
                  "num_warps=4)"]
    lines.append("return y")
    doc = (f"The scan family's {variant} kernel (cumulative {plan.op}{', reversed' if plan.reverse else ''}"
           f"{', masked' if plan.mask is not None else ''}, kernelevo.variation.seeding.families.scan): "
           f"{_DOCS[variant]}.")
    return candidate(doc, KERNELS, graph, [], lines)


_DOCS = {"rows": "rows walked chunk by chunk, each chunk scanned in registers and offset by the carry before it",
         "chunked": "a program per chunk of a row: the chunks' totals in a first pass, then each chunk scanned "
                    "from the totals before it"}


__all__ = ["CHUNKED_ROWS", "ScanFamily", "ScanPlan"]
