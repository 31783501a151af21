"""The optional ``KERNELEVO`` settings of a spec, read without running the spec.

A spec is a KernelBench module; kernelevo's own settings are one module-level literal
dict named ``KERNELEVO``. It is read with :func:`ast.literal_eval`, so reading a spec's
settings never executes its code::

    KERNELEVO = {
        "dtype": "float32",                 # cast floating inputs and the model to this dtype
        "atol": 1e-4, "rtol": 1e-4,         # default: 1e-4 for fp32, 1e-2 for fp16/bf16
        "variants": {                       # named input variants: overrides of module globals
            "small": {"batch_size": 4, "dim": 1000},
            "odd": {"batch_size": 3, "dim": 1531},
        },
        "cpu_variants": ["small", "odd"],   # variants checked on CPU (default: all named ones)
        "language": "triton",               # or "cuda"
        "seeds": ["seed.py"],               # seed kernels, relative to the spec file
        "library": ["gemm", "conv"],        # library families a kernel may hand to torch (default: all of
                                            # gemm, conv, attention, rnn; [] is pure mode)
        "tf32": False,                      # fp32 GEMMs and convolutions may round through TF32 (opt-in)
        "bf16x6": True,                     # kernelevo may propose fp32 GEMMs as six bf16 products (opt-out)
    }

The module as written is the variant ``default``: it is timed on a GPU. On a CPU, where
kernels run in Triton's interpreter, the variant ``small`` is timed instead.
"""

from __future__ import annotations

import ast
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from kernelevo.records.result import known_families
from kernelevo.spec.errors import SpecError

SETTINGS_NAME = "KERNELEVO"
DEFAULT_VARIANT = "default"
SMALL_VARIANT = "small"
FLOAT_DTYPES = ("float32", "float16", "bfloat16", "float64")
# KernelBench's tolerances, by dtype (DESIGN.md, Evaluation).
DEFAULT_TOLERANCE = {"float32": 1e-4, "float64": 1e-7, "float16": 1e-2, "bfloat16": 1e-2}


class SpecSettings(BaseModel):
    """kernelevo's settings for one spec; every field is optional."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    dtype: str | None = None
    atol: float | None = Field(default=None, ge=0)
    rtol: float | None = Field(default=None, ge=0)
    variants: dict[str, dict[str, Any]] = Field(default_factory=dict)
    cpu_variants: list[str] | None = None
    language: Literal["triton", "cuda"] = "triton"
    seeds: list[str] = Field(default_factory=list)
    # the vendor-library families a candidate may call through torch (kernelevo.evaluation.common.library);
    # None: every family; []: pure mode. A run's option overrides it.
    library: list[str] | None = None
    # fp32 matrix products may round their inputs to TF32 (tensor cores): a candidate's library GEMMs and
    # convolutions run with TF32 allowed (its own kernels may use tl.dot's "tf32"); the tolerance still decides
    tf32: bool = False
    # kernelevo's own seeds and moves may run fp32 GEMMs as six bf16 products on the tensor cores, about fp32's
    # accuracy (kernelevo.variation.moves.library_gemm); False keeps them to exact fp32 GEMMs. The tolerance
    # decides either way: the judge does not look for such GEMMs in a kernel an LLM writes.
    bf16x6: bool = True

    @field_validator("library")
    @classmethod
    def _known_families(cls, value: list[str] | None) -> list[str] | None:
        return known_families(value, pure="or [] for pure mode")

    @field_validator("dtype")
    @classmethod
    def _known_dtype(cls, value: str | None) -> str | None:
        if value is not None and value not in FLOAT_DTYPES:
            raise ValueError(f"dtype {value!r} is not one of {', '.join(FLOAT_DTYPES)}")
        return value

    @field_validator("variants")
    @classmethod
    def _variant_names(cls, value: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        if DEFAULT_VARIANT in value:
            raise ValueError(f"'{DEFAULT_VARIANT}' is the module as written; give your variant another name")
        return value

    def tolerance(self, dtype_name: str) -> tuple[float, float]:
        """(atol, rtol) for outputs of ``dtype_name`` (e.g. 'float16')."""
        default = DEFAULT_TOLERANCE.get(self.dtype or dtype_name, 1e-4)
        return (self.atol if self.atol is not None else default, self.rtol if self.rtol is not None else default)

    def variant_names(self) -> list[str]:
        return [DEFAULT_VARIANT, *self.variants]

    def cpu_variant_names(self) -> list[str]:
        """Variants small enough for Triton's interpreter: ``cpu_variants`` or every named variant."""
        if self.cpu_variants is not None:
            return list(self.cpu_variants)
        return list(self.variants) or [DEFAULT_VARIANT]

    def check_variant_references(self) -> None:
        unknown = [v for v in self.cpu_variants or [] if v not in self.variant_names()]
        if unknown:
            raise SpecError(f"cpu_variants names unknown variant(s) {', '.join(unknown)}")


def parse_settings(source: str, *, filename: str = "<spec>") -> SpecSettings:
    """Read the ``KERNELEVO`` dict from a spec's source without executing it."""
    try:
        tree = ast.parse(source, filename=filename)
    except SyntaxError as exc:
        raise SpecError(f"{filename}:{exc.lineno}: syntax error: {exc.msg}") from None
    node = _find_settings(tree)
    if node is None:
        return SpecSettings()
    try:
        raw = ast.literal_eval(node)
    except ValueError:
        raise SpecError(
            f"{filename}:{node.lineno}: {SETTINGS_NAME} must be a literal dict "
            "(numbers, strings, lists and dicts only; no names or calls)"
        ) from None
    if not isinstance(raw, dict):
        raise SpecError(f"{filename}:{node.lineno}: {SETTINGS_NAME} must be a dict, not {type(raw).__name__}")
    try:
        settings = SpecSettings.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or SETTINGS_NAME
        raise SpecError(f"{filename}: {SETTINGS_NAME}[{where}]: {first['msg']}") from None
    settings.check_variant_references()
    return settings


def _find_settings(tree: ast.Module) -> ast.expr | None:
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == SETTINGS_NAME for t in stmt.targets
        ):
            return stmt.value
        if (
            isinstance(stmt, ast.AnnAssign)
            and isinstance(stmt.target, ast.Name)
            and stmt.target.id == SETTINGS_NAME
        ):
            return stmt.value
    return None
