"""TF32 in a candidate's fp32 matrix products: what its spec allows, and how the judge sees it.

torch computes an fp32 GEMM exactly (cuBLAS without TF32) and an fp32 convolution through cuDNN in
TF32, by default; a spec opts its fp32 GEMMs and convolutions in to TF32 with ``tf32: True``
(:class:`kernelevo.spec.settings.SpecSettings`), and the child then turns TF32 on for both. A
candidate keeps to the precision its reference computes in, seen two ways:

- **its Triton kernels.** ``tl.dot`` rounds fp32 operands to TF32 unless told otherwise: that is
  Triton's default, and an LLM's GEMM seldom overrides it. Such a kernel can pass a loose tolerance
  in the judge and then computes in TF32 wherever it runs. Each compiled kernel's TTIR names every
  dot's precision (:func:`tf32_dots`); ``input_precision="ieee"`` (exact) and ``"tf32x3"`` (three
  TF32 products, hi*hi + hi*lo + lo*hi, keeping about 21 of fp32's 24 bits of each product with fp32
  sums: CUTLASS's 3xTF32) are fp32 work, ``"tf32"`` is not;
- **torch's settings.** A candidate that turns TF32 on for its library calls changes torch's
  settings for everything after it in the process, the reference's calls included. The child reads
  them (:func:`precision_settings`) at every library call a candidate makes and after each call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from kernelevo.records.result import KernelMetadata

# tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf32> * tensor<32x64xf32> -> ...; IEEE, the
# attribute's default, is not printed, and tf32x3 does not match (the colon must follow "tf32").
_TF32_DOT = re.compile(r"\btt\.dot\s[^\n]*?\binputPrecision\s*=\s*tf32\s*:\s*tensor<[^>]*xf32>\s*\*\s*"
                       r"tensor<[^>]*xf32>")


def tf32_dots(ttir: str | None) -> int | None:
    """How many of a compiled kernel's dots round fp32 operands to TF32; None without its TTIR."""
    return None if ttir is None else len(_TF32_DOT.findall(ttir))


def tf32_rejection(kernels: Sequence[KernelMetadata], *, spec_tf32: bool, reference_in_tf32: bool) -> str | None:
    """Why kernels whose dots round fp32 to TF32 are rejected; None where they may. They may where the spec
    opts in, or where the reference already computes in TF32: it convolves or runs a recurrent layer in fp32
    through cuDNN, which does so in TF32 (torch's default, kept by the judge), so the reference's output is
    already of TF32's precision."""
    rounded = [k for k in kernels if k.tf32_dots]
    if not rounded or spec_tf32 or reference_in_tf32:
        return None
    named = ", ".join(f"{k.name} ({k.tf32_dots} dot{'s' if k.tf32_dots != 1 else ''})" for k in rounded[:3])
    return (f"{named} round fp32 operands to TF32 (tl.dot's default for fp32) where this spec's reference "
            "computes in fp32: pass input_precision=\"ieee\" (exact) or \"tf32x3\" (three TF32 products, about "
            "fp32's accuracy); a spec that accepts TF32 says so (tf32: True in its KERNELEVO settings)")


# torch's settings that decide the precision of its fp32 GEMMs and convolutions, read through torch._C
# (the public properties are Python a candidate could shadow). torch 2.9 added fp32_precision beside the
# legacy flags; a legacy getter raises once the new API has set the same flag, which is a change too.
_FP32_PRECISION = (("generic", "all"), ("cuda", "all"), ("cuda", "matmul"), ("cuda", "conv"), ("cuda", "rnn"))


def precision_settings() -> dict[str, Any]:
    """torch's precision settings by name: a value each, or the error that reading it raised."""
    import torch

    c = torch._C
    getters: dict[str, Any] = {
        "torch.backends.cuda.matmul.allow_tf32": c._get_cublas_allow_tf32,
        "torch.backends.cudnn.allow_tf32": c._get_cudnn_allow_tf32,
        "torch.get_float32_matmul_precision()": c._get_float32_matmul_precision,
        "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction":
            c._get_cublas_allow_fp16_reduced_precision_reduction,
        "torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction":
            c._get_cublas_allow_bf16_reduced_precision_reduction,
    }
    if hasattr(c, "_get_fp32_precision_getter"):
        for backend, op in _FP32_PRECISION:
            name = f"fp32_precision of {backend}/{op}"
            getters[name] = lambda backend=backend, op=op: c._get_fp32_precision_getter(backend, op)
    settings: dict[str, Any] = {}
    for name, getter in getters.items():
        try:
            settings[name] = getter()
        except Exception as exc:  # the legacy flag after the new API set it: torch refuses to say
            settings[name] = f"unreadable ({type(exc).__name__})"
    return settings


def settings_drift(expected: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """``name: before -> now`` for each setting that is not what the judge set."""
    return [f"{name}: {expected.get(name)!r} -> {value!r}" for name, value in now.items()
            if expected.get(name) != value]


__all__ = ["precision_settings", "settings_drift", "tf32_dots", "tf32_rejection"]
