"""TF32 where a spec computes in fp32: Triton dots read from the TTIR, torch's settings read at library calls."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from kernelevo.evaluation import EvalOptions, Evaluator
from kernelevo.evaluation.common.precision import precision_settings, settings_drift, tf32_dots, tf32_rejection
from kernelevo.records.result import KernelMetadata
from kernelevo.spec import read_spec

ADVERSARIAL = Path(__file__).parents[1] / "adversarial"

# tt.dot lines as Triton 3.9 prints them, compiling for sm_90 (IEEE, the attribute's default, is not printed)
IEEE = "%c = tt.dot %a_8, %b_12, %cst : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32> loc(#loc25)"
TF32 = ("%c = tt.dot %a_8, %b_12, %cst, inputPrecision = tf32 : tensor<16x16xf32> * tensor<16x16xf32> -> "
        "tensor<16x16xf32> loc(#loc25)")
TF32X3 = TF32.replace("= tf32 :", "= tf32x3 :")
FP16 = ("%c_15 = tt.dot %c_13, %c_14, %c, inputPrecision = tf32 : tensor<16x16xf16> * tensor<16x16xf16> -> "
        "tensor<16x16xf32> loc(#loc28)")


def test_only_fp32_dots_in_tf32_count() -> None:
    assert tf32_dots("\n".join([IEEE, TF32X3, FP16])) == 0  # exact, split TF32, and fp16 (TF32 means nothing)
    assert tf32_dots("\n".join([TF32, IEEE, TF32])) == 2
    assert tf32_dots(None) is None  # no TTIR read: nothing known, nothing rejected


def test_tf32_dots_are_rejected_unless_the_spec_or_its_convolutions_allow_them() -> None:
    kernels = [KernelMetadata(name="gemm", tf32_dots=2), KernelMetadata(name="epilogue", tf32_dots=0)]
    why = tf32_rejection(kernels, spec_tf32=False, reference_in_tf32=False)
    assert why is not None and "gemm (2 dots)" in why and "epilogue" not in why and "tf32: True" in why
    assert tf32_rejection(kernels, spec_tf32=True, reference_in_tf32=False) is None
    assert tf32_rejection(kernels, spec_tf32=False, reference_in_tf32=True) is None
    assert tf32_rejection([KernelMetadata(name="gemm")], spec_tf32=False, reference_in_tf32=False) is None


def test_a_changed_setting_is_named_with_both_values() -> None:
    before = precision_settings()
    assert settings_drift(before, precision_settings()) == []
    torch.backends.cuda.matmul.allow_tf32 = not before["torch.backends.cuda.matmul.allow_tf32"]
    try:
        drift = settings_drift(before, precision_settings())
    finally:
        torch.backends.cuda.matmul.allow_tf32 = before["torch.backends.cuda.matmul.allow_tf32"]
    assert any(d.startswith("torch.backends.cuda.matmul.allow_tf32: ") for d in drift), drift
    # (set back, the flag reads as before, but torch 2.13 now reports the matmul's fp32_precision as "ieee",
    # not "none": setting a flag, even back to its value, is a change the child names)


@pytest.mark.slow
def test_a_spec_that_opts_in_accepts_the_tf32_gemm(tmp_path: Path) -> None:
    """The same kernel the adversarial suite rejects as reduced_precision, judged against the spec with tf32: True."""
    spec_path = tmp_path / "matmul_fp32_tf32.py"
    source = (ADVERSARIAL / "specs" / "matmul_fp32.py").read_text()
    spec_path.write_text(source.replace('"dtype": "float32",', '"dtype": "float32", "tf32": True,'))
    kernel = (ADVERSARIAL / "kernels" / "tf32_default_dot.py").read_text()
    options = EvalOptions(run_timeout_s=30, compile_timeout_s=60, baselines=["eager"])  # the GPU where there is one
    with Evaluator(read_spec(str(spec_path)), options) as evaluator:
        accepted = evaluator.evaluate(kernel)
    assert accepted.correct, accepted.message
    assert accepted.kernels and accepted.kernels[0].tf32_dots == 1, accepted.kernels
