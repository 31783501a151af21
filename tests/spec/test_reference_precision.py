"""The reference against itself in float64: a tolerance tighter than the reference's own rounding is named,
with the tolerance that admits it, before a run rejects every kernel as wrong."""

from __future__ import annotations

import textwrap
from pathlib import Path

import torch

from kernelevo.spec import check_spec, read_spec
from kernelevo.spec.loaded import LoadedSpec
from kernelevo.spec.precision import reference_precision

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


def test_an_ill_conditioned_reference_is_named_with_the_tolerance_that_admits_it() -> None:
    found = precision_of(CANCELS)
    assert found.worst_ratio is not None and found.worst_ratio > 10 and found.share_beyond > 0.01
    needed = found.needed_tolerance()
    assert needed is not None and needed >= found.worst_ratio * 1e-4
    assert "ill-conditioned" in found.note and f'"atol": {needed:g}' in found.note
    # that tolerance admits the reference itself
    again = precision_of(CANCELS, f'\nKERNELEVO = {{"atol": {needed!r}, "rtol": {needed!r}}}\n')
    assert again.worst_ratio is not None and again.worst_ratio <= 1 and again.note == ""


def test_a_well_conditioned_reference_says_nothing() -> None:
    found = precision_of(WELL)
    assert found.worst_ratio is not None and found.worst_ratio < 0.1
    assert found.note == "" and not found.convolves and not found.tolerance_set


def test_a_float32_convolution_at_the_default_tolerance_is_warned_of_tf32() -> None:
    """On a CPU the convolution is exact, but on a GPU cuDNN runs it in TF32 by default: the note says so."""
    found = precision_of(CONVOLVES)
    assert found.convolves and found.worst_ratio is not None and found.worst_ratio < 1
    assert "TF32" in found.note and '"atol": 1e-2' in found.note
    # a spec that sets its own tolerance, or opts in to TF32, has decided: no note
    assert precision_of(CONVOLVES, '\nKERNELEVO = {"atol": 1e-2, "rtol": 1e-2}\n').note == ""
    assert precision_of(CONVOLVES, '\nKERNELEVO = {"tf32": True}\n').note == ""


def test_the_spec_check_reports_it_from_its_child() -> None:
    report = check_spec(read_spec(textwrap.dedent(CANCELS)), device="cpu")
    (found,) = report.precision
    assert found.variant == "default" and "ill-conditioned" in found.note


def test_kernelbenchs_mamba2_loads_as_written_and_is_measured() -> None:
    """KernelBench's Mamba2 imports einops (a dependency, so a problem runs as it is written); its reference is
    measured against float64 like any other."""
    report = check_spec(read_spec(str(Path(__file__).parent / "specs" / "mamba2_kernelbench.py")), device="cpu")
    assert report.variant("default").outputs[0].shape == [2, 128, 2, 8]
    (found,) = report.precision
    assert found.worst_ratio is not None
