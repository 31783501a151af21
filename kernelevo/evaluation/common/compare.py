"""Comparing a candidate's outputs with the reference's, in the judge.

Checks in order: the number of outputs, each one's type, dtype and shape, NaN/Inf
positions, the poison pattern (memory the kernel never wrote), and closeness within
``atol + rtol * |expected|``. The first failure is returned with a summary a person can
act on: which output, which variant and trial, the largest errors and where.

Outputs can be several GiB: each pair is walked once, in chunks
(:func:`kernelevo.utils.tensors.chunks`), so the comparison's temporaries stay a few
hundred MiB whatever the output's size, and every statistic above is gathered in that one
pass.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from kernelevo.records.result import ErrorKind, Mismatch
from kernelevo.utils.tensors import chunks

# Values a child writes into freed memory before each call. An output that contains one
# where the reference does not returned memory it never wrote.
_POISON = {
    torch.float32: (1.2345e30, -1.2345e30),
    torch.float64: (1.2345e30, -1.2345e30),
    torch.bfloat16: (1.2345e30, -1.2345e30),
    torch.float16: (31344.0, -31344.0),
}


def poison_value(dtype: torch.dtype, which: int) -> float | None:
    """The poison for ``dtype`` (``which`` is 0 or 1: two patterns for two calls); None for ints."""
    pair = _POISON.get(dtype)
    return pair[which % 2] if pair else None


def fill_poison(specs: list[tuple[list[int], str]], device: torch.device, which: int) -> None:
    """Allocate, poison and free blocks shaped like the expected outputs.

    The caching allocator then hands those blocks to the candidate's own allocations of
    the same size, so a kernel that returns unwritten memory returns poison.
    """
    blocks = []
    for shape, dtype_name in specs:
        dtype = getattr(torch, dtype_name)
        value = poison_value(dtype, which)
        if value is None:
            continue
        blocks.append(torch.full(shape, value, dtype=dtype, device=device))
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    del blocks


@dataclass(frozen=True)
class Verdict:
    """A failed comparison: the named reason, a message, and the mismatch when there is one."""

    kind: ErrorKind
    message: str
    mismatch: Mismatch | None = None


def compare_outputs(
    got: list[torch.Tensor],
    expected: list[torch.Tensor],
    *,
    atol: float,
    rtol: float,
    variant: str,
    trial: str,
    poison: int | None = None,
) -> Verdict | None:
    """None when every output matches; else the first failure (see module docstring)."""
    where = f"variant {variant!r} ({trial})"
    if len(got) != len(expected):
        return Verdict(ErrorKind.WRONG_TYPE,
                       f"returned {len(got)} outputs, the reference returns {len(expected)} ({where})")
    for i, (g, e) in enumerate(zip(got, expected, strict=True)):
        failure = _compare_one(i, g, e, atol=atol, rtol=rtol, variant=variant, trial=trial, poison=poison)
        if failure is not None:
            return failure
    return None


def _compare_one(
    i: int, g: torch.Tensor, e: torch.Tensor, *, atol: float, rtol: float, variant: str, trial: str,
    poison: int | None,
) -> Verdict | None:
    where = f"output[{i}] of variant {variant!r} ({trial})"
    if type(g) is not torch.Tensor:
        return Verdict(ErrorKind.WRONG_TYPE, f"{where} is a {type(g).__name__}, expected a plain torch.Tensor")
    if g.dtype != e.dtype:
        return Verdict(ErrorKind.WRONG_DTYPE, f"{where} has dtype {g.dtype}, the reference {e.dtype}")
    if g.shape != e.shape:
        return Verdict(ErrorKind.WRONG_SHAPE, f"{where} has shape {list(g.shape)}, the reference {list(e.shape)}")
    floating = g.is_floating_point() or g.is_complex()
    poisons = [p for p in (poison_value(g.dtype, w) for w in (0, 1)) if p is not None] if poison is not None else []
    stats = _Stats(atol=atol if floating else 0.0, rtol=rtol if floating else 0.0)
    for offset, (gc, ec) in chunks(g.to(e.device), e):
        stats.add(offset, gc, ec, floating=floating, poisons=poisons)
    return stats.verdict(i, g.shape, where, variant, trial)


class _Stats:
    """What one pass over an output gathers, chunk by chunk, for the verdict."""

    def __init__(self, *, atol: float, rtol: float) -> None:
        self.atol, self.rtol = atol, rtol
        self.nan_inf = 0
        self.first_nan_inf: tuple[int, float, float] | None = None  # flat index, expected, got
        self.poisoned: tuple[int, float] | None = None  # count, the poison value seen
        self.bad = 0
        self.worst: tuple[float, int, float, float] | None = None  # error/tolerance ratio, flat index, expected, got
        self.max_abs = 0.0
        self.max_rel = 0.0
        self.total = 0

    def add(self, offset: int, g: torch.Tensor, e: torch.Tensor, *, floating: bool, poisons: list[float]) -> None:
        self.total += e.numel()
        if not floating:
            self._closeness(offset, g, e, g != e, (g.double() - e.double()).abs(), torch.zeros((), dtype=torch.float64,
                                                                                                device=e.device))
            return
        wrong = (torch.isnan(g) != torch.isnan(e)) | (torch.isinf(g) != torch.isinf(e)) | (torch.isinf(e) & (g != e))
        if bool(wrong.any()):
            self.nan_inf += int(wrong.sum())
            if self.first_nan_inf is None:
                j = int(torch.nonzero(wrong)[0])
                self.first_nan_inf = (offset + j, e[j].item(), g[j].item())
        for value in poisons:
            hits = (g == value) & (e != value)
            if self.poisoned is None and bool(hits.any()):
                self.poisoned = (int(hits.sum()), value)
        wide = torch.float64 if e.dtype == torch.float64 or e.device.type == "cpu" else torch.float32
        gf, ef = g.to(wide), e.to(wide)
        err = torch.where(torch.isfinite(ef), (gf - ef).abs(), torch.zeros((), dtype=wide, device=ef.device))
        tol = self.atol + self.rtol * ef.abs()
        self._closeness(offset, g, e, err > tol, err, tol)

    def _closeness(self, offset: int, g: torch.Tensor, e: torch.Tensor, bad: torch.Tensor, err: torch.Tensor,
                   tol: torch.Tensor) -> None:
        if err.numel():
            self.max_abs = max(self.max_abs, float(err.max()))
            rel = err / e.double().abs().clamp_min(1e-12) if e.is_floating_point() else err
            finite = rel[torch.isfinite(rel)]
            if finite.numel():
                self.max_rel = max(self.max_rel, float(finite.max()))
        if not bool(bad.any()):
            return
        self.bad += int(bad.sum())
        ratio = torch.where(bad, err / tol.clamp_min(1e-30), torch.zeros_like(err))
        j = int(torch.argmax(ratio))
        value = float(ratio[j])
        if self.worst is None or value > self.worst[0]:
            self.worst = (value, offset + j, float(e[j].item()), float(g[j].item()))

    def verdict(self, i: int, shape: torch.Size, where: str, variant: str, trial: str) -> Verdict | None:
        if self.first_nan_inf is not None:
            flat, expected, got = self.first_nan_inf
            return Verdict(
                ErrorKind.NAN_INF_MISMATCH,
                f"{where}: {self.nan_inf} elements are NaN/Inf where the reference is not, or the other way round "
                f"(first at {_unravel(flat, shape)}: expected {expected!r}, got {got!r})",
            )
        if self.poisoned is not None:
            count, value = self.poisoned
            return Verdict(
                ErrorKind.UNINITIALIZED_OUTPUT,
                f"{where}: {count} elements hold the evaluator's poison pattern ({value:g}): "
                "the kernel returns memory it never wrote",
            )
        if self.worst is None:
            return None
        _, flat, expected, got = self.worst
        mismatch = Mismatch(
            variant=variant, trial=trial, output_index=i, max_abs_error=self.max_abs, max_rel_error=self.max_rel,
            worst_index=_unravel(flat, shape), expected=expected, got=got, mismatched=self.bad, total=self.total,
            atol=self.atol, rtol=self.rtol,
        )
        return Verdict(ErrorKind.WRONG_OUTPUT, "wrong output: " + mismatch.summary(), mismatch)


def _unravel(flat: int, shape: torch.Size) -> list[int]:
    """The index in ``shape`` of the ``flat``-th element in row-major order."""
    index = []
    for size in reversed(shape):
        index.append(flat % size)
        flat //= size
    return index[::-1]
