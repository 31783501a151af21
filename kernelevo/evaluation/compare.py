"""Comparing a candidate's outputs with the reference's, in the judge.

Checks in order: the number of outputs, each one's type, dtype and shape, NaN/Inf
positions, the poison pattern (memory the kernel never wrote), and closeness within
``atol + rtol * |expected|``. The first failure is returned with a summary a person can
act on: which output, which variant and trial, the largest errors and where.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from kernelevo.evaluation.result import ErrorKind, Mismatch

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
    g = g.to(e.device)
    if not (g.is_floating_point() or g.is_complex()):
        if torch.equal(g, e):
            return None
        return _mismatch(ErrorKind.WRONG_OUTPUT, i, g, e, 0.0, 0.0, variant, trial)
    bad_nan = torch.isnan(g) != torch.isnan(e)
    bad_inf = (torch.isinf(g) != torch.isinf(e)) | (torch.isinf(e) & (g != e))
    if bad_nan.any() or bad_inf.any():
        n = int((bad_nan | bad_inf).sum())
        first = [int(x) for x in torch.nonzero(bad_nan | bad_inf)[0].tolist()]
        return Verdict(
            ErrorKind.NAN_INF_MISMATCH,
            f"{where}: {n} elements are NaN/Inf where the reference is not, or the other way round "
            f"(first at {first}: expected {e[tuple(first)].item()!r}, got {g[tuple(first)].item()!r})",
        )
    if poison is not None:
        for which in (0, 1):
            value = poison_value(g.dtype, which)
            if value is not None and bool(((g == value) & (e != value)).any()):
                n = int(((g == value) & (e != value)).sum())
                return Verdict(
                    ErrorKind.UNINITIALIZED_OUTPUT,
                    f"{where}: {n} elements hold the evaluator's poison pattern ({value:g}): "
                    "the kernel returns memory it never wrote",
                )
    return _closeness(i, g, e, atol, rtol, variant, trial)


def _closeness(
    i: int, g: torch.Tensor, e: torch.Tensor, atol: float, rtol: float, variant: str, trial: str
) -> Verdict | None:
    wide = torch.float64 if e.dtype == torch.float64 or e.device.type == "cpu" else torch.float32
    gf, ef = g.to(wide), e.to(wide)
    finite = torch.isfinite(ef)
    err = torch.where(finite, (gf - ef).abs(), torch.zeros((), dtype=wide, device=ef.device))
    tol = atol + rtol * ef.abs()
    bad = err > tol
    if not bool(bad.any()):
        return None
    return _mismatch(ErrorKind.WRONG_OUTPUT, i, g, e, atol, rtol, variant, trial, err=err, tol=tol, bad=bad)


def _mismatch(
    kind: ErrorKind, i: int, g: torch.Tensor, e: torch.Tensor, atol: float, rtol: float, variant: str, trial: str,
    *, err: torch.Tensor | None = None, tol: torch.Tensor | None = None, bad: torch.Tensor | None = None,
) -> Verdict:
    if err is None or tol is None or bad is None:
        err = (g.double() - e.double()).abs()
        tol = torch.zeros_like(err)
        bad = g != e
    ratio = err / tol.clamp_min(1e-30)
    flat = int(torch.argmax(torch.where(bad, ratio, torch.zeros_like(ratio))).item())
    index = [int(x) for x in torch.unravel_index(torch.tensor(flat), g.shape)] if g.dim() else []
    rel = err / e.double().abs().clamp_min(1e-12) if e.is_floating_point() else err
    mismatch = Mismatch(
        variant=variant, trial=trial, output_index=i,
        max_abs_error=float(err.max()), max_rel_error=float(rel[torch.isfinite(rel)].max()) if rel.numel() else 0.0,
        worst_index=index,
        expected=float(e[tuple(index)].item()) if e.numel() else None,
        got=float(g[tuple(index)].item()) if g.numel() else None,
        mismatched=int(bad.sum()), total=e.numel(), atol=atol, rtol=rtol,
    )
    return Verdict(kind, "wrong output: " + mismatch.summary(), mismatch)
