"""How close to the exact answer a spec's reference itself is: the bar its tolerance sets, measured.

A kernel is judged against the reference within the spec's tolerance (1e-4 for float32 unless the spec says
otherwise). Two kinds of reference miss that bar themselves, and then every kernel that computes in another
order is rejected as wrong, torch.compile's own included, with nothing to tell the user why:

- an ill-conditioned reference (a Mamba2 block's chunked scan, with ``exp`` of long cumulative sums), whose
  float32 result is far from float64's on some outputs whatever the order of its sums;
- a reference that convolves in float32 on a GPU, where cuDNN runs it in TF32 by default
  (``torch.backends.cudnn.allow_tf32``): about 1e-3 from exact float32, so an exact kernel fails 1e-4.

:func:`reference_precision` runs the reference again in float64 (in the spec checker's child, never in the
judge) and says how far the spec's own dtype is from it, in units of the tolerance, and whether the reference
convolves in float32.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

if TYPE_CHECKING:
    import torch

    from kernelevo.spec.loaded import LoadedSpec

# Elements compared at a time: the float64 temporaries of a comparison stay about 200 MB.
_CHUNK = 1 << 23


class ReferencePrecision(BaseModel):
    """One variant's reference against itself computed in float64."""

    variant: str
    atol: float  # the spec's tolerance for its first floating output
    rtol: float
    tolerance_set: bool  # the spec sets atol or rtol (else the dtype's default)
    worst_ratio: float | None = None  # max |reference - float64| / (atol + rtol |float64|); None: not measured
    share_beyond: float = 0.0  # the share of outputs beyond the tolerance
    convolves: bool = False  # the reference convolves in float32 (TF32 on a GPU by default)
    note: str = ""  # what a person should know, '' when nothing

    def needed_tolerance(self) -> float | None:
        """The smallest atol = rtol (one significant digit, rounded up) that admits the reference itself."""
        if self.worst_ratio is None or self.worst_ratio <= 1:
            return None
        import math

        needed = max(self.atol, self.rtol) * self.worst_ratio
        exponent = math.floor(math.log10(needed))
        return math.ceil(needed / 10**exponent) * 10**exponent


def reference_precision(problem: LoadedSpec, name: str, device: torch.device, *, seed: int = 0) -> ReferencePrecision:
    """Run ``name``'s reference in its own dtype and in float64 on the same inputs and compare them."""
    import torch

    settings = problem.spec.settings
    model = problem.model(name, seed, device)
    inputs = problem.inputs(name, seed, device)
    with torch.no_grad():
        native = problem.forward(model, name, inputs)
    floating = [y for y in native if isinstance(y, torch.Tensor) and y.is_floating_point()
                and y.dtype != torch.float64]
    dtype = str(floating[0].dtype).removeprefix("torch.") if floating else "float64"
    atol, rtol = settings.tolerance(dtype)
    found = ReferencePrecision(variant=name, atol=atol, rtol=rtol,
                               tolerance_set=settings.atol is not None or settings.rtol is not None)
    if not floating:
        return found  # nothing rounds: integer outputs, or a float64 reference
    try:
        exact_model = model.double()
        exact_inputs = [x.double() if isinstance(x, torch.Tensor) and x.is_floating_point() else x for x in inputs]
        exact, convolves = _noting_convolution(lambda: problem.forward(exact_model, name, exact_inputs))
    except Exception as exc:  # an op without a float64 kernel, a dtype fixed inside forward, no memory for it
        found.note = f"not measured: the reference does not run in float64 ({type(exc).__name__})"
        return found
    finally:
        if device.type == "cuda":
            torch.cuda.empty_cache()
    found.convolves = convolves and dtype == "float32"
    pairs = [(y, e) for y, e in zip(native, exact, strict=False)
             if isinstance(y, torch.Tensor) and y.is_floating_point() and y.dtype != torch.float64
             and isinstance(e, torch.Tensor) and e.shape == y.shape]
    if not pairs:
        found.note = "not measured: the float64 run's outputs do not match the reference's"
        return found
    worst, beyond, total = 0.0, 0, 0
    for y, e in pairs:
        for start in range(0, y.numel(), _CHUNK):
            got = y.reshape(-1)[start:start + _CHUNK].double()
            want = e.reshape(-1)[start:start + _CHUNK].double()
            finite = torch.isfinite(want) & torch.isfinite(got)
            ratio = ((got - want).abs() / (atol + rtol * want.abs()))[finite]
            if ratio.numel():
                worst = max(worst, float(ratio.max()))
                beyond += int((ratio > 1).sum())
            total += got.numel()
    found.worst_ratio, found.share_beyond = worst, beyond / max(total, 1)
    found.note = _note(found, dtype, on_gpu=device.type == "cuda", tf32=settings.tf32)
    return found


def _note(found: ReferencePrecision, dtype: str, *, on_gpu: bool, tf32: bool) -> str:
    where = f"variant {found.variant!r}"
    tolerance = f"atol {found.atol:g}, rtol {found.rtol:g}"
    needed = found.needed_tolerance()
    if needed is not None:  # the reference misses its own tolerance
        why = (" (its convolutions ran in TF32, cuDNN's default)" if found.convolves and on_gpu else
               " (its rounding alone: it is ill-conditioned at this tolerance)")
        return (f"the reference's own {dtype} result misses float64 by up to {found.worst_ratio:.3g}x its tolerance "
                f"({tolerance}) on {found.share_beyond:.2%} of outputs, {where}{why}: a kernel that computes in "
                f"another order, torch.compile's included, will be rejected as wrong. Give the spec a tolerance "
                f"that admits the reference itself: \"atol\": {needed:g}, \"rtol\": {needed:g} in KERNELEVO "
                f"(or more, for other inputs)")
    if found.convolves and not found.tolerance_set and not tf32:
        return (f"the reference convolves in float32: on a GPU, cuDNN runs that in TF32 by default "
                f"(torch.backends.cudnn.allow_tf32), about 1e-3 from exact float32, so with the default tolerance "
                f"({tolerance}) a kernel that convolves exactly, or torch.compile's, may be rejected as wrong. "
                f"KernelBench's original tolerance, \"atol\": 1e-2, \"rtol\": 1e-2 in KERNELEVO, admits both "
                f"(`kernelevo spec` on a GPU measures it)")
    return ""


def _noting_convolution(forward: Callable[[], list[Any]]) -> tuple[list[Any], bool]:
    """``forward()``'s outputs (without autograd), and whether any convolution ran in it, transposed included."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    class NotesConvolution(TorchDispatchMode):
        seen = False

        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            self.seen = self.seen or "convolution" in func.__name__
            return func(*args, **(kwargs or {}))

    with torch.no_grad(), NotesConvolution() as mode:
        outputs = forward()
    return outputs, mode.seen


__all__ = ["ReferencePrecision", "reference_precision"]
