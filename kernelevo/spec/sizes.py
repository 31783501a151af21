"""How much memory a spec's variant holds, known before any of it is allocated.

KernelBench ships problems with several GiB of input. Before the judge or the spec probe
allocates a variant, :func:`live_data` builds its inputs and model on PyTorch's meta
device (shapes and dtypes, no storage) and runs the reference there for its outputs'
sizes. :func:`ensure_fits` turns a variant that cannot fit where it is about to run into
a :class:`SpecError` that names the sizes and what to do, instead of a kernel's
``out_of_memory`` or a child killed by the kernel's OOM killer.
"""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING

from pydantic import BaseModel

from kernelevo.records.options import CPU_CHILD_LIMIT_GB
from kernelevo.spec.errors import SpecError

if TYPE_CHECKING:
    import torch

    from kernelevo.spec.loaded import LoadedSpec

GIB = 1 << 30
# address space of a CPU child (bytes), unless the evaluation's options say otherwise
CPU_CHILD_LIMIT = int(CPU_CHILD_LIMIT_GB * GIB)
# What a CPU child maps besides the data: Python, torch, triton (address space, not resident memory)
CPU_CHILD_BASE_BYTES = 4 * GIB


class LiveData(BaseModel):
    """Bytes a variant keeps live: its inputs, its reference outputs and the model's parameters."""

    variant: str
    input_bytes: int
    output_bytes: int | None  # None: the reference could not run on the meta device
    param_bytes: int

    @property
    def total_bytes(self) -> int:
        """D: inputs, outputs and parameters (outputs counted as large as the inputs when unknown)."""
        outputs = self.output_bytes if self.output_bytes is not None else self.input_bytes
        return self.input_bytes + outputs + self.param_bytes

    def describe(self) -> str:
        outputs = "outputs of unknown size" if self.output_bytes is None else f"{gib(self.output_bytes)} of outputs"
        return (f"variant {self.variant!r} holds {gib(self.input_bytes)} of inputs, {outputs} and "
                f"{gib(self.param_bytes)} of parameters")


def gib(nbytes: float) -> str:
    return f"{nbytes / GIB:.2f} GiB"


def live_data(problem: LoadedSpec, variant: str, *, outputs_above: int) -> LiveData:
    """The variant's live data, from its inputs, model and reference run on the meta device.

    The reference runs on the meta device only when the inputs hold ``outputs_above``
    bytes or more: its first run there costs 1 to 5 s (PyTorch loads its meta kernels and
    decompositions), and a variant far smaller than the memory at hand fits whatever its
    outputs are. Raises :class:`SpecError` only for what
    would fail on any device (a broken ``get_inputs``); a reference whose ops have no meta
    implementation leaves the outputs' size unknown too.
    """
    import torch

    meta = torch.device("meta")
    inputs = problem.inputs(variant, 0, meta)
    input_bytes = sum(_nbytes(x) for x in inputs if isinstance(x, torch.Tensor))
    if input_bytes < outputs_above:
        return LiveData(variant=variant, input_bytes=input_bytes, output_bytes=None, param_bytes=0)
    try:
        model = problem.model(variant, 0, meta)
        param_bytes = sum(_nbytes(t) for t in (*model.parameters(), *model.buffers()))
        outputs: int | None = sum(_nbytes(y) for y in problem.forward(model, variant, inputs))
    except Exception:  # an op without a meta kernel, or an init that reads values: sized on the device instead
        return LiveData(variant=variant, input_bytes=input_bytes, output_bytes=None, param_bytes=0)
    return LiveData(variant=variant, input_bytes=input_bytes, output_bytes=outputs, param_bytes=param_bytes)


def _nbytes(t: torch.Tensor) -> int:
    return math.prod(t.shape) * t.element_size()


def ensure_fits(live: LiveData, device: torch.device, *, cpu_limit_bytes: int, gpu_free_bytes: int | None = None,
                size_names: str = "") -> None:
    """Raise :class:`SpecError` if judging ``live``'s variant cannot fit on ``device``.

    On a GPU, judging needs at least two copies of the live data: the candidate's (in its
    child) and the reference's (in the judge). On the CPU, the candidate's child runs under
    an address-space limit of ``cpu_limit_bytes``, and the judge and the child share the
    machine's memory. ``size_names`` lists the spec's size globals, for the advice.
    """
    need = 2 * live.total_bytes
    if device.type == "cuda":
        if gpu_free_bytes is not None and need > gpu_free_bytes:
            raise SpecError(
                f"{live.describe()} ({gib(live.total_bytes)} of live data): judging a kernel needs the candidate's "
                f"copy and the reference's, at least {gib(need)}, but the GPU has {gib(gpu_free_bytes)} free "
                f"({device}); judge it on a GPU with at least {gib(5 * live.total_bytes + 4 * GIB)} "
                f"(5 x live data + 4 GiB), or time a smaller variant{_advice(size_names)}")
        return
    available = _available_memory()
    if need + CPU_CHILD_BASE_BYTES > cpu_limit_bytes or (available is not None and need > available):
        machine = f" and this machine has {gib(available)} available" if available is not None else ""
        raise SpecError(
            f"{live.describe()} ({gib(live.total_bytes)} of live data): too big to judge on the CPU, where kernels "
            f"run in Triton's interpreter (a CPU child may map {gib(cpu_limit_bytes)}{machine}); "
            f"add a \"small\" variant to the spec's KERNELEVO settings{_advice(size_names)}")


def _advice(size_names: str) -> str:
    return f" (its sizes: {size_names})" if size_names else ""


def size_globals(problem: LoadedSpec) -> str:
    """The spec's module-level integers, as a variant would override them: ``batch_size=4096, dim=393216``."""
    names = [f"{k}={v}" for k, v in vars(problem.module).items()
             if not k.startswith("_") and type(v) is int and k != "KERNELEVO"]
    return ", ".join(names[:6])


def _available_memory() -> int | None:
    """MemAvailable from /proc/meminfo (bytes), or None where there is none."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else None
