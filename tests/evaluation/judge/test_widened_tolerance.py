"""The judge's tolerance where a spec sets none: widened from the default where the reference's own float32
result is that far from float64, recorded in each result, and never past KernelBench's 1e-2 (CPU, Triton's
interpreter; on a GPU the reference's convolutions are measured in TF32 too, tests/spec/test_reference_precision)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelevo.evaluation import ErrorKind, EvalOptions, evaluate
from kernelevo.spec import read_spec

OPTIONS = EvalOptions(device="cpu", run_timeout_s=20, compile_timeout_s=60)
# (x * 1e5 + y) - x * 1e5: about 100x float32's default tolerance from float64; with 1e4, about 10x
CANCELS = (Path(__file__).parents[2] / "spec" / "specs" / "ill_conditioned.py").read_text()
SOMEWHAT_OFF = CANCELS.replace("1e5", "1e4")

# The exact answer, y, which float64 gives: the float32 reference's own rounding is all that separates them.
EXACT = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(y_ptr + offsets, mask=mask) + OFFSET, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x, y):
        out = torch.empty_like(y)
        copy_kernel[(triton.cdiv(y.numel(), 1024),)](y, out, y.numel(), BLOCK=1024)
        return out
'''


def candidate(offset: float) -> str:
    return EXACT.replace("OFFSET", repr(offset))


def test_a_kernel_as_exact_as_float64_passes_at_the_widened_tolerance_and_the_result_says_so() -> None:
    result = evaluate(read_spec(SOMEWHAT_OFF), candidate(0.0), OPTIONS)
    assert result.ok, result.message
    (widened,) = result.tolerances
    assert widened.variant == "default" and widened.default == 1e-4 and widened.why == "its own rounding"
    assert 2 * widened.reference_error * 1e-4 <= widened.atol == widened.rtol <= 1e-2
    assert f"atol = rtol = {widened.atol:g}" in widened.summary()


def test_the_widened_tolerance_still_rejects_a_wrong_kernel() -> None:
    result = evaluate(read_spec(SOMEWHAT_OFF), candidate(0.05), OPTIONS)
    assert result.error == ErrorKind.WRONG_OUTPUT and result.mismatch is not None
    assert result.mismatch.atol == result.tolerances[0].atol > 1e-4  # judged, and reported, at the widened one


def test_a_spec_that_sets_its_tolerance_is_judged_at_it() -> None:
    spec = read_spec(SOMEWHAT_OFF + '\nKERNELEVO = {"atol": 1e-4, "rtol": 1e-4}\n')
    result = evaluate(spec, candidate(0.0), OPTIONS)
    assert result.error == ErrorKind.WRONG_OUTPUT and result.tolerances == []
    assert result.mismatch is not None and result.mismatch.atol == 1e-4


@pytest.mark.parametrize("settings", ["", '\nKERNELEVO = {"dtype": "float32"}\n'])
def test_a_reference_too_far_from_float64_is_refused_with_the_tolerance_it_needs(settings: str) -> None:
    result = evaluate(read_spec(CANCELS + settings), candidate(0.0), OPTIONS)
    assert result.error == ErrorKind.SPEC_ERROR, result.message
    assert "atol = rtol = 0.03" in result.message and "KERNELEVO" in result.message
