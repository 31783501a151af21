"""The reference against itself in float64: a tolerance tighter than the reference's own rounding is named,
with the tolerance that admits it, before a run rejects every kernel as wrong."""

from __future__ import annotations

import textwrap
from pathlib import Path

import torch

from kernelevo.spec import check_spec, read_spec
from kernelevo.spec.loaded import LoadedSpec
from kernelevo.spec.precision import WIDEST, _float64_run, reference_precision, to_tf32

CPU = torch.device("cpu")

ILL_CONDITIONED = Path(__file__).parent / "specs" / "ill_conditioned.py"
# the same reference as source text, to give it settings
CANCELS = ILL_CONDITIONED.read_text()

CONVOLVES = '''
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)

    def forward(self, x):
        return torch.relu(self.conv(x))

def get_inputs():
    return [torch.randn(2, 3, 16, 16)]

def get_init_inputs():
    return []
'''

WELL = '''
import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x):
        return torch.nn.functional.gelu(x)

def get_inputs():
    return [torch.randn(64, 256)]

def get_init_inputs():
    return []
'''


def precision_of(source: str, settings: str = ""):
    spec = read_spec(textwrap.dedent(source) + settings)
    return reference_precision(LoadedSpec(spec), "default", CPU)


def test_a_reference_far_from_float64_is_refused_with_the_tolerance_that_admits_it() -> None:
    """(x * 1e5 + y) - x * 1e5 in float32 is about 100x the default tolerance from float64: past the widest
    tolerance a judge derives (1e-2), so it is refused, naming the tolerance the spec would need."""
    found = precision_of(CANCELS)
    assert found.worst_ratio is not None and found.worst_ratio > 50 and found.share_beyond > 0.01
    assert found.widened_tolerance() is not None and found.widened_tolerance() > WIDEST["float32"]
    refusal = found.refusal()
    assert refusal is not None and f"atol = rtol = {found.widened_tolerance():g}" in refusal
    assert "will refuse this spec" in found.note and "ill-conditioned" not in refusal
    assert found.judged == "refused" and found.model_dump()["judged"] == "refused"  # the API and dashboard read it
    # a spec that sets a tolerance has decided: what admits the reference itself is named, and admits it
    set_too_tight = precision_of(CANCELS, '\nKERNELEVO = {"atol": 1e-3, "rtol": 1e-3}\n')
    needed = set_too_tight.needed_tolerance()
    assert set_too_tight.refusal() is None and needed is not None and f'"atol": {needed:g}' in set_too_tight.note
    assert set_too_tight.judged == "too_tight"
    again = precision_of(CANCELS, f'\nKERNELEVO = {{"atol": {needed!r}, "rtol": {needed!r}}}\n')
    assert again.worst_ratio is not None and again.worst_ratio <= 1 and again.note == ""


def test_a_reference_somewhat_off_float64_gets_a_wider_default() -> None:
    """About 10x the default tolerance from float64: widened to twice that, one significant digit up."""
    found = precision_of(CANCELS.replace("1e5", "1e4"))
    assert found.worst_ratio is not None and 2 < found.worst_ratio < 40
    widened = found.widened_tolerance()
    assert widened is not None and 2 * found.worst_ratio * 1e-4 <= widened <= 1e-2 and found.refusal() is None
    assert f"widens it to atol = rtol = {widened:g}" in found.note and "ill-conditioned" in found.note
    assert found.judged == "widened"
    # a float16 output keeps its own default: only float32 is widened
    in_half = precision_of(CANCELS.replace("1e5", "1e4"), '\nKERNELEVO = {"dtype": "float16"}\n')
    assert in_half.dtype == "float16" and in_half.widened_tolerance() is None


def test_a_well_conditioned_reference_says_nothing() -> None:
    found = precision_of(WELL)
    assert found.worst_ratio is not None and found.worst_ratio < 0.1
    assert found.note == "" and not found.convolves and not found.tolerance_set
    assert found.widened_tolerance() is None and found.tf32_ratio is None and found.judged == ""


def test_a_float32_convolution_is_measured_with_tf32_operands_too() -> None:
    """On a CPU the convolution is exact, but on a GPU cuDNN runs it in TF32 by default: the reference runs once
    more with its convolutions' operands rounded to TF32, and the default is widened to admit that."""
    found = precision_of(CONVOLVES)
    assert found.convolves and found.worst_ratio is not None and found.worst_ratio < 1
    assert found.tf32_ratio is not None and found.tf32_ratio > 1  # TF32's 10-bit mantissa: about 1e-3 off
    widened = found.widened_tolerance()
    assert widened is not None and widened >= 2 * found.tf32_ratio * 1e-4
    assert "TF32" in found.note and "on a GPU" in found.note
    # a spec that sets its own tolerance has decided: no note where it admits TF32
    assert precision_of(CONVOLVES, '\nKERNELEVO = {"atol": 1e-2, "rtol": 1e-2}\n').note == ""
    # without TF32 (a CPU judge), nothing to widen
    assert reference_precision(LoadedSpec(read_spec(textwrap.dedent(CONVOLVES))), "default", CPU,
                               tf32=False).widened_tolerance() is None


RECURS = '''
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(64, 128, 2, batch_first=True)
        self.head = nn.Linear(128, 16)

    def forward(self, x, h0):
        out, _ = self.rnn(x, h0)
        return self.head(out[:, -1, :])

def get_inputs():
    return [torch.randn(8, 64, 64), torch.randn(2, 8, 128)]

def get_init_inputs():
    return []
'''


def test_a_float32_recurrent_layer_is_measured_with_tf32_products_too() -> None:
    """cuDNN runs a float32 LSTM, GRU or RNN in TF32 on a GPU by default, as it convolves: the TF32 run rounds
    the operands of the matrix products inside the layer (run outside cuDNN, so that they are seen), not those
    of the rest of the model, and the default is widened to admit it."""
    found = precision_of(RECURS)
    assert found.recurs and not found.convolves and found.worst_ratio is not None and found.worst_ratio < 0.1
    assert found.tf32_ratio is not None and found.tf32_ratio > 1 and found.cause() == "TF32 recurrent layers"
    widened = found.widened_tolerance()
    assert widened is not None and widened >= 2 * found.tf32_ratio * 1e-4 and found.judged == "widened"
    assert "with its recurrent layers in TF32" in found.note
    # a GEMM outside the layer is not TF32's (cuBLAS keeps float32 unless the spec opts in): left exact
    x, w = torch.randn(32, 64, dtype=torch.float64), torch.randn(64, 16, dtype=torch.float64)
    (outside,), ran = _float64_run(lambda: [x @ w], tf32_matmuls=False)
    assert torch.equal(outside, x @ w) and ran == set()
    (opted_in,), _ = _float64_run(lambda: [x @ w], tf32_matmuls=True)
    assert torch.equal(opted_in, to_tf32(x) @ to_tf32(w))


def test_tf32_rounding_keeps_ten_mantissa_bits_to_nearest() -> None:
    x = torch.tensor([1.0, 1 + 2**-11, 1 + 2**-10 + 2**-12, -3.14159265, 0.0])
    assert to_tf32(x).tolist() == [1.0, 1 + 2**-10, 1 + 2**-10, -3.140625, 0.0]
    assert to_tf32(x.double()).dtype == torch.float64 and to_tf32(3) == 3


def test_the_spec_check_reports_it_from_its_child() -> None:
    report = check_spec(read_spec(textwrap.dedent(CANCELS)), device="cpu")
    (found,) = report.precision
    assert found.variant == "default" and "will refuse this spec" in found.note


def test_kernelbenchs_mamba2_loads_as_written_and_is_measured() -> None:
    """KernelBench's Mamba2 imports einops (a dependency, so a problem runs as it is written); its reference is
    measured against float64 like any other."""
    report = check_spec(read_spec(str(Path(__file__).parent / "specs" / "mamba2_kernelbench.py")), device="cpu")
    assert report.variant("default").outputs[0].shape == [2, 128, 2, 8]
    (found,) = report.precision
    assert found.worst_ratio is not None


HELD_TENSOR = '''
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = torch.randn(256)  # a plain attribute, as KernelBench's older LSTMs hold h0

    def forward(self, x):
        return torch.matmul(x, torch.diag(self.scale))

def get_inputs():
    return [torch.randn(64, 256)]

def get_init_inputs():
    return []
'''


def test_a_tensor_held_as_a_plain_attribute_runs_in_float64_too() -> None:
    """``.double()`` converts parameters and buffers only: the float64 run converts what a module holds besides."""
    found = precision_of(HELD_TENSOR)
    assert found.worst_ratio is not None and found.worst_ratio < 0.1 and found.note == ""


def test_a_reference_that_will_not_run_in_float64_says_why() -> None:
    fixed = HELD_TENSOR.replace("torch.randn(256)  #", "nn.Parameter(torch.randn(256))  #").replace(
        "torch.matmul(x,", "torch.matmul(x.float(),")  # a dtype fixed inside forward
    found = precision_of(fixed)
    assert found.worst_ratio is None and found.widened_tolerance() is None and found.refusal() is None
    assert found.note.startswith("not measured: the reference does not run in float64 (Model.forward raised")
    assert "(at line 11 of the spec)" in found.note  # its forward's return
