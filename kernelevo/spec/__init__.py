"""Specs: PyTorch reference operators in the KernelBench format, with kernelevo's settings.

``read_spec`` reads a spec without running it; ``check_spec`` runs it in an isolated
child and describes its variants; ``load_spec`` does both.
"""

from kernelevo.spec.errors import SpecError
from kernelevo.spec.probe import SpecReport, TensorInfo, VariantInfo, check_spec
from kernelevo.spec.settings import DEFAULT_VARIANT, SMALL_VARIANT, SpecSettings, parse_settings
from kernelevo.spec.spec import Spec, read_spec


def load_spec(spec: str, *, device: str = "auto", name: str | None = None) -> tuple[Spec, SpecReport]:
    """Read ``spec`` (a path or source text) and check it in an isolated child.

    Raises :class:`SpecError` with a one-line message on any problem.
    """
    parsed = read_spec(spec, name=name)
    return parsed, check_spec(parsed, device=device)


__all__ = [
    "DEFAULT_VARIANT",
    "SMALL_VARIANT",
    "Spec",
    "SpecError",
    "SpecReport",
    "SpecSettings",
    "TensorInfo",
    "VariantInfo",
    "check_spec",
    "load_spec",
    "parse_settings",
    "read_spec",
]
