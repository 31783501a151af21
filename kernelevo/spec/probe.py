"""Check a spec by running it in an isolated child, and describe its variants.

:func:`check_spec` starts a sandbox that executes the spec, builds each variant's model
and inputs, runs the reference twice (it must be deterministic), and reports shapes,
dtypes, the bytes a kernel must move and the FLOPs it must do. Any problem comes back as
a one-line :class:`SpecError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING

from pydantic import BaseModel

from kernelevo.isolation.sandbox import Sandbox, SandboxFailure
from kernelevo.spec.errors import SpecError
from kernelevo.spec.precision import ReferencePrecision, reference_precision
from kernelevo.spec.sizes import CPU_CHILD_LIMIT, ensure_fits, live_data, size_globals
from kernelevo.spec.spec import Spec

if TYPE_CHECKING:
    import torch

    from kernelevo.spec.loaded import LoadedSpec


class TensorInfo(BaseModel):
    shape: list[int]
    dtype: str

    @property
    def nbytes(self) -> int:
        import math

        return math.prod(self.shape) * _itemsize(self.dtype)


class VariantInfo(BaseModel):
    """What one variant's reference reads, writes and computes."""

    name: str
    inputs: list[TensorInfo]
    outputs: list[TensorInfo]
    param_bytes: int
    flops: int
    # GPU: the most memory one reference run held (its inputs, parameters, outputs and temporaries)
    reference_peak_bytes: int | None = None

    @property
    def min_bytes(self) -> int:
        """Bytes a kernel must move at least: every input and parameter read, every output written once."""
        return sum(t.nbytes for t in self.inputs) + sum(t.nbytes for t in self.outputs) + self.param_bytes

    @property
    def read_bytes(self) -> int:
        """Bytes a kernel must read at least: every input and parameter once."""
        return sum(t.nbytes for t in self.inputs) + self.param_bytes

    @property
    def input_bytes(self) -> int:
        return sum(t.nbytes for t in self.inputs)

    @property
    def output_bytes(self) -> int:
        return sum(t.nbytes for t in self.outputs)


class SpecReport(BaseModel):
    name: str
    device: str
    variants: list[VariantInfo]
    # each variant's reference against itself in float64: whether the tolerance admits the reference itself
    precision: list[ReferencePrecision] = []

    def variant(self, name: str) -> VariantInfo:
        return next(v for v in self.variants if v.name == name)


_ITEMSIZE = {"float64": 8, "float32": 4, "float16": 2, "bfloat16": 2, "int64": 8, "int32": 4, "int16": 2,
             "int8": 1, "uint8": 1, "bool": 1, "complex64": 8, "complex128": 16}


def _itemsize(dtype: str) -> int:
    return _ITEMSIZE.get(dtype.removeprefix("torch."), 4)


def describe_variant(problem: LoadedSpec, name: str, device: torch.device, *, cpu_limit_bytes: int = CPU_CHILD_LIMIT,
                     count_flops: bool = True, seed: int = 0) -> VariantInfo:
    """Run ``name``'s reference twice on the same inputs and describe it (``flops`` 0 unless ``count_flops``).

    First its size is checked against ``device`` without allocating it
    (:func:`kernelevo.spec.sizes.ensure_fits`); a reference that still runs out of memory is
    a :class:`SpecError` naming the sizes too, never a kernel's fault.
    """
    import torch

    gpu = device.type == "cuda"
    free = torch.cuda.mem_get_info(device)[0] if gpu else None
    # the outputs' size matters only for inputs within reach of the memory at hand
    live = live_data(problem, name, outputs_above=(free if free is not None else cpu_limit_bytes) // 16)
    ensure_fits(live, device, cpu_limit_bytes=cpu_limit_bytes, gpu_free_bytes=free, size_names=size_globals(problem))
    try:
        return _run_reference(problem, name, device, seed, count_flops)
    except (SpecError, torch.OutOfMemoryError, MemoryError) as exc:
        text = str(exc)
        if not isinstance(exc, torch.OutOfMemoryError | MemoryError) and "out of memory" not in text.lower():
            raise
        raise SpecError(f"{live.describe()}: the reference ran out of memory on {device} "
                        f"({text.strip().splitlines()[0][:300]}); judge it where it fits, or time a smaller variant"
                        ) from None
    finally:
        if gpu:
            torch.cuda.empty_cache()


def _run_reference(problem: LoadedSpec, name: str, device: torch.device, seed: int, count_flops: bool) -> VariantInfo:
    import contextlib

    import torch
    from torch.utils.flop_counter import FlopCounterMode

    from kernelevo.utils.tensors import equal, max_abs_difference

    gpu = device.type == "cuda"
    before = 0
    if gpu:
        torch.cuda.synchronize(device)
        before = torch.cuda.memory_allocated(device)
        torch.cuda.reset_peak_memory_stats(device)
    model = problem.model(name, seed, device)
    inputs = problem.inputs(name, seed, device)
    counter = FlopCounterMode(display=False) if count_flops else None
    with counter if counter is not None else contextlib.nullcontext():
        first = problem.forward(model, name, inputs)
    peak = torch.cuda.max_memory_allocated(device) - before if gpu else None
    second = problem.forward(model, name, inputs)
    for i, (a, b) in enumerate(zip(first, second, strict=True)):
        if not equal(a, b, nan_equal=True) and not _repeats_within_noise(problem, a, b):
            diff = max_abs_difference(a, b) if a.shape == b.shape else float("nan")
            raise SpecError(
                f"the reference is nondeterministic: two runs on the same inputs give different output[{i}] "
                f"(max difference {diff:.3g}, variant {name!r}); fix dropout or random ops in Model.forward"
            )
    params = sum(t.numel() * t.element_size() for t in (*model.parameters(), *model.buffers()))
    return VariantInfo(
        name=name,
        inputs=[_info(x) for x in inputs if isinstance(x, torch.Tensor)],
        outputs=[_info(y) for y in first],
        param_bytes=params,
        flops=int(counter.get_total_flops()) if counter is not None else 0,
        reference_peak_bytes=peak,
    )


# A reference may repeat itself only to within rounding: torch's CPU ops pick their vector or
# scalar path by how threads split the work, so two runs can differ by a few ulps. Such noise
# is a tiny share of the spec's tolerance; dropout or random ops differ by the data itself.
NOISE_SHARE_OF_TOLERANCE = 0.01


def _repeats_within_noise(problem: LoadedSpec, a: torch.Tensor, b: torch.Tensor) -> bool:
    from kernelevo.utils.tensors import within_tolerance

    if not a.is_floating_point():
        return False
    atol, rtol = problem.spec.settings.tolerance(str(a.dtype).removeprefix("torch."))
    share = NOISE_SHARE_OF_TOLERANCE
    return within_tolerance(a, b, atol=atol * share, rtol=rtol * share)


def _info(t: torch.Tensor) -> TensorInfo:
    return TensorInfo(shape=list(t.shape), dtype=str(t.dtype).removeprefix("torch."))


@dataclass
class _ProbeRequest:
    variants: list[str]


class SpecProbe:
    """Sandbox handler: loads the spec once, describes variants on request."""

    def __init__(self, arg: tuple[Spec, str], conn: Connection) -> None:
        from kernelevo.spec.loaded import LoadedSpec
        from kernelevo.utils.devices import pick_device

        spec, device = arg
        self.device = pick_device(device)
        self.problem = LoadedSpec(spec)

    def handle(self, request: _ProbeRequest) -> SpecReport:
        variants = [describe_variant(self.problem, v, self.device) for v in request.variants]
        precision = [reference_precision(self.problem, v, self.device) for v in request.variants]
        return SpecReport(name=self.problem.spec.name, device=str(self.device), variants=variants,
                          precision=precision)


def check_spec(
    spec: Spec, *, device: str = "auto", variants: list[str] | None = None, timeout_s: float = 300.0
) -> SpecReport:
    """Execute ``spec`` in an isolated child and describe ``variants``.

    ``device`` is ``auto`` (CUDA when present), ``cuda`` or ``cpu``; by default the
    variants are those that device evaluates. Raises :class:`SpecError` with one line.
    """
    from kernelevo.utils.devices import cuda_present, sandbox_env

    gpu = cuda_present() if device == "auto" else device == "cuda"
    names = variants or spec.correctness_variants(gpu=gpu)
    box = Sandbox(
        "kernelevo.spec.probe:SpecProbe",
        (spec, "cuda" if gpu else "cpu"),
        env=sandbox_env(gpu=gpu),
        name="spec",
        # a check before anything else: its verdict is one line; the run's own children say what they lack
        note_missing=False,
    )
    try:
        box.start()
        reply = box.call(_ProbeRequest(names), {"*": timeout_s, "start": timeout_s})
    except SandboxFailure as exc:
        if exc.kind in ("start", "handler_error"):
            raise SpecError(exc.message.removeprefix("SpecError: ")) from None
        raise SpecError(f"checking the spec failed: {exc.message}") from None
    finally:
        box.close()
    return reply


__all__ = ["SpecReport", "TensorInfo", "VariantInfo", "check_spec", "describe_variant"]
