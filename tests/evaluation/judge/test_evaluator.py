"""The evaluator through its public API, on the CPU (Triton's interpreter)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from kernelevo.evaluation import ErrorKind, EvalOptions, Evaluator, Stage, evaluate
from kernelevo.spec import read_spec

OPTIONS = EvalOptions(device="cpu", run_timeout_s=20, compile_timeout_s=60)


@pytest.fixture(scope="module")
def gelu(examples_dir: Path):
    return read_spec(str(examples_dir / "gelu" / "spec.py"))


@pytest.fixture(scope="module")
def seed(examples_dir: Path) -> str:
    return (examples_dir / "gelu" / "seed.py").read_text()


@pytest.fixture(scope="module")
def evaluator(gelu):
    with Evaluator(gelu, OPTIONS) as ev:
        yield ev


def test_correct_kernel(evaluator: Evaluator, seed: str) -> None:
    result = evaluator.evaluate(seed)
    assert result.ok and result.stage == Stage.VERDICT, result.message
    assert result.interpreted and result.kernel is not None and result.kernel.interpreted
    assert result.speedup_eager is None and result.roofline is None  # never a GPU speed from the interpreter
    assert result.variants_checked == ["odd", "small"] and result.timed_variant == "small"
    (kernel,) = result.kernels
    assert kernel.name == "gelu_kernel" and kernel.source == "aot-sm90"
    assert kernel.registers and kernel.registers > 0 and kernel.spills == 0 and kernel.num_warps == 4
    assert kernel.launches > 0 and result.launches == kernel.launches
    assert result.environment is not None and result.environment.hardware == "cpu-interpreter"
    costs = result.costs
    assert costs.total_s >= costs.compile_s + costs.correctness_s + costs.timing_s


def test_judge_stays_warm_and_children_are_fresh(evaluator: Evaluator, seed: str) -> None:
    assert evaluator._judge is not None
    judge_pid = evaluator._judge.pid
    first, second = evaluator.evaluate(seed), evaluator.evaluate(seed)
    assert first.ok and second.ok
    assert evaluator._judge.pid == judge_pid


def test_wrong_kernel_says_where(evaluator: Evaluator, seed: str) -> None:
    wrong = seed.replace("0.5 * x * (1.0 + tanh)", "0.5 * x * (1.0 + tanh) + 1e-3")
    result = evaluator.evaluate(wrong)
    assert result.error == ErrorKind.WRONG_OUTPUT and result.stage == Stage.CORRECTNESS
    assert result.mismatch is not None and result.mismatch.variant == "odd"
    assert result.mismatch.max_abs_error == pytest.approx(1e-3, rel=0.1)
    assert "variant 'odd'" in result.message


def test_error_in_the_kernel_names_the_line(evaluator: Evaluator, seed: str) -> None:
    broken = seed.replace("tl.store(out_ptr + offsets", "tl.store(undefined_ptr + offsets")
    result = evaluator.evaluate(broken)
    assert not result.ok and result.error in (ErrorKind.RUNTIME_ERROR, ErrorKind.COMPILE_ERROR)
    assert "undefined_ptr" in result.message


def test_judge_that_dies_is_restarted(gelu, seed: str) -> None:
    with Evaluator(gelu, OPTIONS) as ev:
        assert ev._judge is not None and ev._judge.pid is not None
        os.killpg(ev._judge.pid, signal.SIGKILL)
        lost = ev.evaluate(seed)
        assert lost.error == ErrorKind.EVALUATOR_ERROR and "judge" in lost.message
        assert ev.evaluate(seed).ok
        assert ev.judge_restarts == 1


def test_broken_spec_is_a_result_not_an_exception(seed: str) -> None:
    spec = read_spec("import torch\nclass Model(torch.nn.Module):\n    pass\n")
    result = evaluate(spec, seed, OPTIONS)
    assert result.error == ErrorKind.SPEC_ERROR and "get_inputs" in result.message


def test_children_get_the_environment_the_judge_started_with(examples_dir: Path, seed: str, tmp_path: Path) -> None:
    """What runs in the judge later (the spec's module, torch.compile's baseline) may change its
    environment; candidate children must not inherit that (inductor points TRITON_PTXAS_PATH at
    torch's ptxas, and Triton 3.6 keys its compile cache on the ptxas version)."""
    spec_path = tmp_path / "spec.py"
    # the reference's forward runs only in the judge (a candidate's child builds inputs, never calls it)
    spec_path.write_text((examples_dir / "gelu" / "spec.py").read_text() + (
        "\n_reference_forward = Model.forward\n\n\n"
        "def _forward_changing_the_environment(self, *args):\n"
        "    __import__('os').environ['KERNELEVO_SET_IN_THE_JUDGE'] = '1'\n"
        "    return _reference_forward(self, *args)\n\n\n"
        "Model.forward = _forward_changing_the_environment\n"))
    probe = seed.replace("        x = x.contiguous()\n", '        if "KERNELEVO_SET_IN_THE_JUDGE" in '
                         '__import__("os").environ:\n            raise RuntimeError("inherited")\n'
                         "        x = x.contiguous()\n", 1)
    assert probe != seed
    result = evaluate(read_spec(str(spec_path)), probe, EvalOptions(device="cpu", static_checks=False))
    assert result.ok, result.message


def test_descriptors_asked_for_are_measured_with_a_correct_result_only(evaluator: Evaluator, seed: str) -> None:
    from kernelevo.archive.descriptors import measure

    plain = evaluator.options
    evaluator.options = plain.model_copy(update={"descriptors": ["memory", "compute", "registers"]})
    try:  # the descriptors are the evaluating process's work, after the judge's verdict: no new judge
        result = evaluator.evaluate(seed)
        wrong = evaluator.evaluate(seed.replace("0.5 * x * (1.0 + tanh)", "0.5 * x * (1.0 + tanh) + 1e-3"))
    finally:
        evaluator.options = plain
    assert result.ok and result.measures == measure(["memory", "compute", "registers"], seed, result)
    assert result.measures is not None and result.measures["registers"] > 0  # from the kernel's compile metadata
    assert not wrong.ok and wrong.measures is None
    assert evaluator.evaluate(seed).measures is None  # not asked


def test_what_the_candidate_prints_goes_with_its_result_not_to_the_terminal(
        gelu, seed: str, capfd: pytest.CaptureFixture[str]) -> None:
    # a judge of its own, started while capfd captures: its children print where it did
    loud = seed.replace("\n\nclass ModelNew", '\n\nprint("KERNELEVO-MARKER at import")\n\n\nclass ModelNew', 1)
    loud = loud.replace("        x = x.contiguous()\n",
                        '        print("KERNELEVO-MARKER in forward")\n        x = x.contiguous()\n', 1)
    assert loud.count("KERNELEVO-MARKER") == 2
    result = evaluate(gelu, loud, OPTIONS)
    assert result.ok, result.message
    candidate, _, ahead = result.output.partition("[ahead-of-time compile]\n")
    assert "KERNELEVO-MARKER at import\n" in candidate and "KERNELEVO-MARKER in forward\n" in candidate
    assert "KERNELEVO-MARKER at import" in ahead  # the sm_90 compile imports the candidate again
    out, err = capfd.readouterr()
    assert "KERNELEVO-MARKER" not in out + err
