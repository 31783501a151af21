"""How close to the exact answer a spec's reference itself is, and the tolerance a judge takes from that.

A kernel is judged against the reference within a tolerance (1e-4 for float32 unless the spec sets one). Two
kinds of reference miss that bar themselves, and then every kernel that computes in another order would be
rejected as wrong, torch.compile's own included:

- an ill-conditioned reference (a Mamba2 block's chunked scan, with ``exp`` of long cumulative sums), whose
  float32 result is far from float64's on some outputs whatever the order of its sums;
- a reference that convolves, or runs a recurrent layer (LSTM, GRU, RNN), in float32 on a GPU, where cuDNN
  may run it in TF32 (``torch.backends.cudnn.allow_tf32``, on by default, sets the math type of both): about
  1e-3 from exact float32, so an exact kernel, or a TF32 one against an exact reference, fails 1e-4.

:func:`reference_precision` runs the reference again in float64 on the same inputs (in the spec checker's
child, or in the judge, which runs the spec anyway) and measures how far the spec's own dtype is from it, in
units of the tolerance; where the reference convolves or recurs in float32 it runs once more with the operands
of each convolution, and of each matrix product inside a recurrent layer, rounded to TF32 first, which is what
cuDNN's TF32 does. Where the spec sets no tolerance, a judge
widens float32's default to :data:`MARGIN` times the worst of these (one significant digit, rounded up) and
refuses the spec where that passes KernelBench's 1e-2 (:data:`WIDEST`): a user must then say what is right.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, computed_field

if TYPE_CHECKING:
    import torch

    from kernelevo.spec.loaded import LoadedSpec

# Elements compared at a time: the float64 temporaries of a comparison stay about 200 MB.
_CHUNK = 1 << 23
# A widened tolerance over the reference's own worst error: a kernel's other order of sums, on other inputs,
# errs about as much again (a TF32 kernel against an exact reference, or the other way round).
MARGIN = 2.0
# The widest tolerance a judge derives, by dtype (KernelBench's for float32); only float32 is widened.
WIDEST = {"float32": 1e-2}
# torch ops whose operands TF32 rounds; matrix products only where the spec opts in to TF32 (tf32: True).
_CONVOLUTION = "convolution"
_MATMUL_OPERANDS = {"mm": (0, 1), "bmm": (0, 1), "addmm": (1, 2), "baddbmm": (1, 2)}
# torch's recurrent layers (nn.LSTM, nn.GRU, nn.RNN): cuDNN runs them whole; outside cuDNN they are matrix
# products and elementwise ops, which is how the TF32 run sees their products
_RECURRENT = frozenset({"lstm", "gru", "rnn_tanh", "rnn_relu"})


class ReferencePrecision(BaseModel):
    """One variant's reference against itself computed in float64."""

    variant: str
    dtype: str = "float32"  # of the reference's first floating output
    atol: float  # the spec's tolerance for that output
    rtol: float
    tolerance_set: bool  # the spec sets atol or rtol (else the dtype's default)
    worst_ratio: float | None = None  # max |reference - float64| / (atol + rtol |float64|); None: not measured
    share_beyond: float = 0.0  # the share of outputs beyond the tolerance
    convolves: bool = False  # the reference convolves in float32 (TF32 on a GPU by default)
    recurs: bool = False  # the reference runs a recurrent layer in float32 (TF32 on a GPU by default, as above)
    tf32_ratio: float | None = None  # the same with those ops' operands rounded to TF32; None: not run
    note: str = ""  # what a person should know, '' when nothing

    def worst(self) -> float | None:
        """The worst error measured, the TF32 run's included, in units of the tolerance."""
        measured = [r for r in (self.worst_ratio, self.tf32_ratio) if r is not None]
        return max(measured) if measured else None

    def tf32_worse(self) -> bool:
        """The TF32 run is further from float64 than the reference in its own dtype."""
        return self.tf32_ratio is not None and self.tf32_ratio > (self.worst_ratio or 0)

    def in_tf32(self) -> str:
        """The ops the TF32 run rounded, in words: "convolutions", "recurrent layers", both, or (a spec that
        opts in to TF32) "matrix products"."""
        kinds = [w for w, on in (("convolutions", self.convolves), ("recurrent layers", self.recurs)) if on]
        return " and ".join(kinds) or "matrix products"

    def cause(self) -> str:
        """What puts the reference furthest from float64: "TF32 convolutions" and the like, or its own rounding."""
        return f"TF32 {self.in_tf32()}" if self.tf32_worse() else "its own rounding"

    def needed_tolerance(self) -> float | None:
        """The smallest atol = rtol (one significant digit, rounded up) that admits the reference itself."""
        worst = self.worst()
        return None if worst is None or worst <= 1 else _one_digit_up(max(self.atol, self.rtol) * worst)

    def widened_tolerance(self) -> float | None:
        """The atol = rtol a judge takes where the spec sets none: MARGIN x the worst error, one significant
        digit up; None where the default stands (the spec sets a tolerance, the output is not float32, or the
        default admits MARGIN x the worst)."""
        worst = self.worst()
        if self.tolerance_set or self.dtype not in WIDEST or worst is None or worst * MARGIN <= 1:
            return None
        return _one_digit_up(max(self.atol, self.rtol) * worst * MARGIN)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def judged(self) -> str:
        """What a judge does about it: 'refused', 'widened', 'too_tight' (the spec's own tolerance misses the
        reference itself), or '' (nothing: the tolerance admits the reference, or it was not measured)."""
        if self.tolerance_set:
            return "too_tight" if self.needed_tolerance() is not None else ""
        return "refused" if self.refusal() is not None else "widened" if self.widened_tolerance() is not None else ""

    def refusal(self) -> str | None:
        """Why a judge refuses this variant: its widened tolerance would pass :data:`WIDEST`; None otherwise."""
        widened = self.widened_tolerance()
        if widened is None or widened <= WIDEST[self.dtype]:
            return None
        return (f"variant {self.variant!r}: the reference's own {self.dtype} result is up to {self.worst():.3g}x "
                f"the default tolerance ({self.atol:g}) from float64 on {self.share_beyond:.2%} of outputs, so no "
                f"kernel that sums in another order can be judged at it, and admitting that needs atol = rtol = "
                f"{widened:g}, past the {WIDEST[self.dtype]:g} a judge widens to by itself. Set the tolerance this "
                f"problem deserves in the spec (\"atol\" and \"rtol\" in KERNELEVO), or make its inputs "
                f"better conditioned")


def _one_digit_up(value: float) -> float:
    exponent = math.floor(math.log10(value))
    return float(f"{math.ceil(value / 10**exponent - 1e-9)}e{exponent}")


def reference_precision(problem: LoadedSpec, name: str, device: torch.device, *, seed: int = 0,
                        tf32: bool = True) -> ReferencePrecision:
    """Run ``name``'s reference in its own dtype and in float64 on the same inputs and compare them; with
    ``tf32``, a float32 reference that convolves or recurs runs once more, those ops' operands rounded to TF32."""
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
    found = ReferencePrecision(variant=name, dtype=dtype, atol=atol, rtol=rtol,
                               tolerance_set=settings.atol is not None or settings.rtol is not None)
    if not floating:
        return found  # nothing rounds: integer outputs, or a float64 reference
    try:
        exact_model = in_float64(model)
        exact_inputs = [x.double() if isinstance(x, torch.Tensor) and x.is_floating_point() else x for x in inputs]
        exact, ran = _float64_run(lambda: problem.forward(exact_model, name, exact_inputs))
        found.convolves = "convolution" in ran and dtype == "float32"
        found.recurs = "recurrent" in ran and dtype == "float32"
        compared = [i for i, (y, e) in enumerate(zip(native, exact, strict=False))
                    if any(y is f for f in floating) and isinstance(e, torch.Tensor) and e.shape == y.shape]
        if not compared:
            raise _NotComparable("the float64 run's outputs do not match the reference's")
        found.worst_ratio, found.share_beyond = _worst(native, exact, compared, atol, rtol)
        if tf32 and dtype == "float32" and (found.convolves or found.recurs or settings.tf32):
            rounded, _ = _float64_run(lambda: problem.forward(exact_model, name, exact_inputs),
                                      tf32_matmuls=settings.tf32)
            found.tf32_ratio, _ = _worst(rounded, exact, compared, atol, rtol)
    except _NotComparable as exc:
        found.note = f"not measured: {exc}"
        return found
    except Exception as exc:  # an op without a float64 kernel, a dtype fixed inside forward, no memory for it
        why = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else type(exc).__name__
        found.note = f"not measured: the reference does not run in float64 ({why})"
        return found
    finally:
        if device.type == "cuda":
            torch.cuda.empty_cache()
    found.note = _note(found, on_gpu=device.type == "cuda")
    return found


class _NotComparable(Exception):
    pass


def _worst(outputs: list[Any], exact: list[Any], compared: list[int], atol: float,
           rtol: float) -> tuple[float, float]:
    """The worst |outputs - exact| / (atol + rtol |exact|) over the outputs ``compared``, and the share beyond 1."""
    import torch

    worst, beyond, total = 0.0, 0, 0
    for y, e in ((outputs[i], exact[i]) for i in compared):
        for start in range(0, y.numel(), _CHUNK):
            got = y.reshape(-1)[start:start + _CHUNK].double()
            want = e.reshape(-1)[start:start + _CHUNK].double()
            finite = torch.isfinite(want) & torch.isfinite(got)
            ratio = ((got - want).abs() / (atol + rtol * want.abs()))[finite]
            if ratio.numel():
                worst = max(worst, float(ratio.max()))
                beyond += int((ratio > 1).sum())
            total += got.numel()
    return worst, beyond / max(total, 1)


def _note(found: ReferencePrecision, *, on_gpu: bool) -> str:
    where = f"variant {found.variant!r}"
    tolerance = f"atol {found.atol:g}, rtol {found.rtol:g}"
    tf32_worse = found.tf32_worse()
    why = (f" (with its {found.in_tf32()} in TF32, as cuDNN runs float32 on a GPU by default)" if tf32_worse else
           " (its rounding alone: it is ill-conditioned at this tolerance)")
    gpu = "" if on_gpu or not tf32_worse else " on a GPU"
    if found.tolerance_set:
        needed = found.needed_tolerance()
        if needed is None:
            return ""
        return (f"the reference's own {found.dtype} result misses float64 by up to {found.worst():.3g}x the spec's "
                f"tolerance ({tolerance}), {where}{why}: a kernel that computes in another order, "
                f"torch.compile's included, will be rejected as wrong{gpu}. A tolerance that admits the reference "
                f"itself: \"atol\": {needed:g}, \"rtol\": {needed:g} in KERNELEVO (or more, for other inputs)")
    refusal = found.refusal()
    if refusal is not None:
        return f"a judge{gpu} will refuse this spec: {refusal}"
    widened = found.widened_tolerance()
    if widened is None:
        return ""
    return (f"the reference's own {found.dtype} result is up to {found.worst():.3g}x the default tolerance "
            f"({tolerance}) from float64, {where}{why}: a judge{gpu} widens it to atol = rtol = {widened:g} "
            f"({MARGIN:g}x that, one digit up) and records it in each result; a spec that sets \"atol\" and "
            f"\"rtol\" in KERNELEVO is judged at its own")


def in_float64(model: torch.nn.Module) -> torch.nn.Module:
    """``model`` with its parameters, buffers and the floating tensors it holds as plain attributes in float64
    (a KernelBench RNN may keep its initial state as ``self.h0``, which ``.double()`` leaves alone)."""
    import torch

    model = model.double()
    for module in model.modules():
        for key, value in list(vars(module).items()):
            if isinstance(value, torch.Tensor) and value.is_floating_point() and value.dtype != torch.float64:
                setattr(module, key, value.double())
    return model


def _float64_run(forward: Callable[[], list[Any]], *, tf32_matmuls: bool | None = None) -> tuple[list[Any], set[str]]:
    """``forward()``'s outputs (without autograd), and which of TF32's kinds of op ran in it: "convolution"
    (transposed included), "recurrent" (a whole LSTM, GRU or RNN layer). With ``tf32_matmuls`` not None, each
    convolution's input and weight are rounded to TF32 first, and so are the operands of each matrix product
    inside a recurrent layer (of every matrix product, where it is True), as tensor cores round float32
    operands; a recurrent layer then runs outside cuDNN, so that its products are seen one by one."""
    import torch
    from torch.overrides import TorchFunctionMode
    from torch.utils._python_dispatch import TorchDispatchMode

    ran: set[str] = set()
    depth = [0]  # recurrent layers under way: their products are TF32's in cuDNN

    class Recurrent(TorchFunctionMode):
        def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            if getattr(func, "__name__", "") not in _RECURRENT:
                return func(*args, **(kwargs or {}))
            ran.add("recurrent")
            depth[0] += 1
            try:
                with torch.backends.cudnn.flags(enabled=tf32_matmuls is None):
                    return func(*args, **(kwargs or {}))
            finally:
                depth[0] -= 1

    class Float64Run(TorchDispatchMode):
        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            op = func.__name__.split(".")[0]
            convolution = _CONVOLUTION in op
            if convolution:
                ran.add("convolution")
            if tf32_matmuls is not None:
                rounds_products = tf32_matmuls or depth[0] > 0
                operands = (0, 1) if convolution else _MATMUL_OPERANDS.get(op, ()) if rounds_products else ()
                args = tuple(to_tf32(a) if i in operands else a for i, a in enumerate(args))
            return func(*args, **(kwargs or {}))

    with torch.no_grad(), Recurrent(), Float64Run():
        outputs = forward()
    return outputs, ran


def to_tf32(x: Any) -> Any:
    """A float tensor's values rounded to TF32 (float32's 8-bit exponent, 10 of its 23 mantissa bits; to
    nearest, ties away from zero, as ``cvt.rna.tf32.f32``), in its own dtype; anything else unchanged."""
    import torch

    if not isinstance(x, torch.Tensor) or not x.is_floating_point():
        return x
    bits = x.float().contiguous().view(torch.int32)
    rounded = ((bits + 0x1000) & ~0x1FFF).view(torch.float32)
    return rounded.to(x.dtype).reshape(x.shape)


__all__ = ["MARGIN", "WIDEST", "ReferencePrecision", "in_float64", "reference_precision", "to_tf32"]
