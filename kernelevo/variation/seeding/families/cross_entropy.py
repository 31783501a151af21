"""Cross-entropy, the loss family's graph with a gather: ``nll_loss(log_softmax(x, 1), target)``, mean over rows.

Matches ``aten.nll_loss_forward`` (no class weights, mean reduction, any ``ignore_index``) of
``aten._log_softmax`` over the last dim of a 2-D floating-point input, with integer labels of shape
[rows] (:class:`~kernelevo.variation.seeding.families.losses.LossFamily` asks :func:`match`).

Why it is faster (bytes moved): each row of logits is read once, its maximum and sum of exponentials
kept together (online softmax), and only the label's logit gathered: 4N read and nothing of size N
written, where the reference writes the log-softmax (4N) and reads it again. A row's loss is
``log(sum(exp(x - max))) + max - x[label]``; rows whose label is ``ignore_index`` count for nothing and
the mean divides by the rows that count (0 / 0: NaN where none does, as torch). The sum is two-stage
and deterministic, as every loss's.

Where a row fits a program's registers (up to ``RESIDENT_CLASSES`` classes), the ``resident`` variant holds
tiles of whole rows: the maximum first, then the sum of exponentials from the registers, one exp an element
where the online form takes two and a rescale (the SMs' issue, not the DRAM, held that form below its read
floor: benchmarks/README.md, "Where the time goes").
"""

from __future__ import annotations

from dataclasses import dataclass

from kernelevo.variation.seeding.families.family import candidate, partial_grid
from kernelevo.variation.seeding.op_graph import OpGraph, OpNode


@dataclass(frozen=True)
class CrossEntropyPlan:
    x: int  # the logits' position in forward's arguments
    target: int  # the labels'
    ignore_index: int
    classes: int  # at the traced sizes


def match(graph: OpGraph, out: OpNode) -> tuple[CrossEntropyPlan, set[str]] | None:
    nll = graph.arg(out, 0) if out.target == "getitem" and out.args[1:] == [0] else None
    if nll is None or nll.target != "aten.nll_loss_forward.default" or nll.kwargs or len(nll.args) != 5:
        return None
    lsm, target = graph.arg(nll, 0), graph.arg(nll, 1)
    _, _, weight, reduction, ignore = nll.args
    if lsm is None or target is None or weight is not None or reduction != 1 or not isinstance(ignore, int):
        return None
    x = graph.arg(lsm, 0)
    if lsm.target != "aten._log_softmax.default" or x is None or x.kind != "input" or x.shape is None \
            or len(x.shape) != 2 or x.dtype not in ("float32", "float16", "bfloat16") or lsm.args[1] not in (1, -1) \
            or lsm.args[2] is not False:
        return None
    if target.kind != "input" or target.dtype not in ("int64", "int32") or target.shape != x.shape[:1]:
        return None
    # the total weight nll_loss also returns (its second result): computed beside, never returned
    side = {u.name for u in graph.users(nll.name) if u.target == "getitem" and u.args[1:] == [1]}
    return (CrossEntropyPlan(x.index or 0, target.index or 0, ignore, x.shape[1]),
            {out.name, nll.name, lsm.name} | side)


KERNELS = '''

@triton.jit
def _kev_xent_add(X, T, m, m_mask, base, lse, ignore, total, count):
    """Rows' losses (each its log-sum-exp less its label's logit, gathered) and how many count, added to a
    program's sums; a row whose label is ``ignore`` counts for nothing."""
    label = tl.load(T + m, mask=m_mask, other=ignore)
    counts = m_mask & (label != ignore)
    picked = tl.load(X + base + tl.where(counts, label, 0), mask=counts, other=0.0).to(tl.float32)
    return total + tl.where(counts, lse - picked, 0.0), count + counts.to(tl.float32)


@triton.jit
def _kev_xent_partial(X, T, PART, COUNT, M, C, ignore, BLOCK_M: tl.constexpr, BLOCK_C: tl.constexpr):
    """A program's partial sum of its rows' losses (and how many rows count), tiles of BLOCK_M rows
    walked in chunks of BLOCK_C classes: an online maximum and sum of exponentials per row, and the
    label's logit gathered."""
    pid = tl.program_id(0)
    rows = tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_C)
    total = tl.zeros([BLOCK_M], tl.float32)
    count = tl.zeros([BLOCK_M], tl.float32)
    for t in range(pid, tl.cdiv(M, BLOCK_M), tl.num_programs(0)):
        m = t * BLOCK_M + rows
        m_mask = m < M
        base = m.to(tl.int64) * C
        run_max = tl.full([BLOCK_M, BLOCK_C], float("-inf"), tl.float32)
        run_sum = tl.zeros([BLOCK_M, BLOCK_C], tl.float32)
        for c0 in range(0, C, BLOCK_C):
            c = c0 + cols
            mask = m_mask[:, None] & (c < C)[None, :]
            x = tl.load(X + base[:, None] + c[None, :], mask=mask, other=float("-inf")).to(tl.float32)
            new_max = tl.maximum(run_max, x)
            # a lane that has seen only -inf keeps a sum of 0 (exp(-inf - -inf) would be NaN)
            safe = tl.where(new_max == float("-inf"), 0.0, new_max)
            run_sum = run_sum * tl.exp(run_max - safe) + tl.exp(x - safe)
            run_max = new_max
        row_max = tl.max(run_max, axis=1)
        safe_max = tl.where(row_max == float("-inf"), 0.0, row_max)
        lse = tl.log(tl.sum(run_sum * tl.exp(run_max - safe_max[:, None]), axis=1)) + safe_max
        total, count = _kev_xent_add(X, T, m, m_mask, base, lse, ignore, total, count)
    tl.store(PART + pid, tl.sum(total, axis=0))
    tl.store(COUNT + pid, tl.sum(count, axis=0))


@triton.jit
def _kev_xent_resident(X, T, PART, COUNT, M, C, ignore, BLOCK_M: tl.constexpr, BLOCK_C: tl.constexpr):
    """A program's partial sum of its rows' losses (and how many rows count), tiles of BLOCK_M whole rows
    (BLOCK_C >= C) held in registers: each row's maximum, then its sum of exponentials, one exp an element."""
    pid = tl.program_id(0)
    rows = tl.arange(0, BLOCK_M)
    c = tl.arange(0, BLOCK_C)
    total = tl.zeros([BLOCK_M], tl.float32)
    count = tl.zeros([BLOCK_M], tl.float32)
    for t in range(pid, tl.cdiv(M, BLOCK_M), tl.num_programs(0)):
        m = t * BLOCK_M + rows
        m_mask = m < M
        base = m.to(tl.int64) * C
        mask = m_mask[:, None] & (c < C)[None, :]
        x = tl.load(X + base[:, None] + c[None, :], mask=mask, other=float("-inf")).to(tl.float32)
        row_max = tl.max(x, axis=1)
        # a row of -inf only: its sum of exponentials is 0 and its log -inf, as torch's
        safe_max = tl.where(row_max == float("-inf"), 0.0, row_max)
        lse = tl.log(tl.sum(tl.exp(x - safe_max[:, None]), axis=1)) + safe_max
        total, count = _kev_xent_add(X, T, m, m_mask, base, lse, ignore, total, count)
    tl.store(PART + pid, tl.sum(total, axis=0))
    tl.store(COUNT + pid, tl.sum(count, axis=0))


@triton.jit
def _kev_xent_finish(PART, COUNT, OUT, P, BLOCK_P: tl.constexpr):
    """The partial sums and counts added in a fixed order; the mean over the rows that count."""
    offs = tl.arange(0, BLOCK_P)
    acc = tl.zeros([BLOCK_P], tl.float32)
    n = tl.zeros([BLOCK_P], tl.float32)
    for p0 in range(0, P, BLOCK_P):
        p = p0 + offs
        acc += tl.load(PART + p, mask=p < P, other=0.0)
        n += tl.load(COUNT + p, mask=p < P, other=0.0)
    tl.store(OUT, tl.sum(acc, axis=0) / tl.sum(n, axis=0))
'''


RESIDENT_CLASSES = 16384  # 32 fp32 registers a thread at 16 warps


def variants(plan: CrossEntropyPlan) -> tuple[str, ...]:
    return ("persistent", "tiles") + (("resident",) if plan.classes <= RESIDENT_CLASSES else ())


def source(plan: CrossEntropyPlan, graph: OpGraph, variant: str) -> str:
    row = 1 << max(0, (plan.classes - 1).bit_length())
    lines = [f"x = inputs[{plan.x}].contiguous()", f"target = inputs[{plan.target}].contiguous()",
             "m, c = x.shape", "out = torch.empty((), device=x.device, dtype=x.dtype)"]
    if variant == "resident":  # whole rows: the block follows the row, rows a tile and warps are tuned
        kernel, warps = "_kev_xent_resident", min(16, max(4, row // 512))
        lines += [f"block_m, block_c = {max(1, min(16, 2048 // row))}, triton.next_power_of_2(c)"]
    else:
        kernel, warps, block_c = "_kev_xent_partial", 8, min(2048, row)
        lines += [f"block_m, block_c = {max(1, min(16, 2048 // block_c))}, {block_c}"]
    lines += ["tiles = triton.cdiv(m, block_m)"]
    lines += partial_grid("tiles" if variant == "tiles" else "persistent")
    lines += ["part, count = (torch.empty((grid,), device=x.device, dtype=torch.float32) for _ in range(2))",
              f"{kernel}[(grid,)](x, target, part, count, m, c, {plan.ignore_index}, BLOCK_M=block_m, "
              f"BLOCK_C=block_c, num_warps={warps})",
              "_kev_xent_finish[(1,)](part, count, out, grid, BLOCK_P=1024, num_warps=4)",
              "return out"]
    form = "whole rows in registers" if variant == "resident" else "online softmax"
    doc = (f"The loss family's {variant} cross-entropy kernel (kernelevo.variation.seeding.families.cross_entropy): "
           f"each row's logits read once ({form}), the label's gathered, a partial sum per program "
           "added by a second, one-program pass.")
    return candidate(doc, KERNELS, graph, [], lines)


__all__ = ["RESIDENT_CLASSES", "CrossEntropyPlan", "match", "source", "variants"]
