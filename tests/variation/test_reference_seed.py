"""The reference itself as a seed where torch.compile cannot capture it and it is library calls alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from eval_options import correctness_options

from kernelevo.evaluation import Evaluator
from kernelevo.records.result import LIBRARY_FAMILIES
from kernelevo.spec import read_spec
from kernelevo.utils.devices import cuda_present
from kernelevo.variation.seeding.compile_seeds import seeds_from_compile
from kernelevo.variation.seeding.inductor_capture import CaptureError
from kernelevo.variation.seeding.reference_seed import ReferenceSeedError, reference_seed

SUITE = Path(__file__).resolve().parents[2] / "benchmarks" / "suite"


def test_an_lstm_reference_is_its_own_seed_and_is_judged_correct() -> None:
    spec = read_spec(str(SUITE / "lstm.py"))
    seed = reference_seed(spec.source, library=LIBRARY_FAMILIES)
    assert "class ModelNew(nn.Module)" in seed and "def get_inputs" not in seed and "KERNELEVO" not in seed
    with Evaluator(spec, correctness_options(aot_metadata=False)) as evaluator:
        result = evaluator.evaluate(seed)
    assert result.correct, (result.error, result.message)
    assert result.library is not None and [c.op for c in result.library.calls] == ["lstm"]


def test_a_reference_that_computes_outside_the_policy_is_no_seed() -> None:
    with pytest.raises(ReferenceSeedError, match=r"torch\.tanh\(\) computes in PyTorch"):
        reference_seed(read_spec(str(SUITE / "gelu_tanh.py")).source, library=LIBRARY_FAMILIES)
    with pytest.raises(ReferenceSeedError, match="library policy does not allow"):
        reference_seed(read_spec(str(SUITE / "lstm.py")).source, library=("gemm",))


@pytest.mark.skipif(cuda_present(), reason="the CPU path: no capture, so the fallback is what a run gets")
def test_without_a_capture_the_run_is_seeded_with_the_library_reference() -> None:
    (name, _), = seeds_from_compile(read_spec(str(SUITE / "gru.py")))
    assert name == "gru-reference-library"
    with pytest.raises(CaptureError, match="need a GPU"):  # and a spec whose reference computes gets no seed
        seeds_from_compile(read_spec(str(SUITE / "relu.py")))


def test_a_reference_calling_a_torch_module_that_computes_is_no_seed() -> None:
    """A ResNet block's BatchNorm2d is a module call the static checks cannot see into: no seed, said so."""
    with pytest.raises(ReferenceSeedError, match=r"self\.bn1 \(BatchNorm2d\)"):
        reference_seed(read_spec(str(SUITE / "resnet_basic_block.py")).source, library=LIBRARY_FAMILIES)
