"""The adversarial suite: every known cheat must be rejected, for exactly the named reason.

Cases live in ``cases.py``; each candidate is a module in ``kernels/``. One warm
:class:`Evaluator` serves every case of one options combination (starting a judge costs
seconds). Without a GPU the candidates run in Triton's CPU interpreter; GPU-only cases
are marked ``gpu`` and skipped. See README.md.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import torch

from kernelevo.evaluation import EvalResult, Evaluator
from kernelevo.spec import read_spec

from .cases import (
    CASES,
    CONTROLS,
    GELU_SPEC,
    KERNELS,
    Case,
    Control,
    combinations_for,
    control_for,
    options,
)

HAS_CUDA = torch.cuda.is_available()
NEEDS_GPU = [pytest.mark.gpu, pytest.mark.skipif(not HAS_CUDA, reason="needs a CUDA GPU")]

EvaluatorFor = Callable[..., Evaluator]


@pytest.fixture(scope="session")
def evaluator_for() -> Iterator[EvaluatorFor]:
    """``evaluator_for(static_checks, runtime_checks, library, spec=GELU_SPEC)``: a warm evaluator per combination."""
    warm: dict[tuple[bool, bool, str, Path], Evaluator] = {}

    def get(static_checks: bool, runtime_checks: bool, library: str, spec: Path = GELU_SPEC) -> Evaluator:
        key = (static_checks, runtime_checks, library, spec)
        if key not in warm:
            evaluator = Evaluator(read_spec(str(spec)), options(static_checks, runtime_checks, library, spec))
            evaluator.start()
            warm[key] = evaluator
        return warm[key]

    yield get
    for evaluator in warm.values():
        evaluator.close()


def _describe(result: EvalResult) -> str:
    return f"correct={result.correct} error={result.error} stage={result.stage}\nmessage: {result.message}"


def _checks_id(checks: tuple[bool, bool, str]) -> str:
    static_checks, runtime_checks, library = checks
    policy = "" if library == "default" else f"-library-{library}"
    return f"static-{'on' if static_checks else 'off'}-runtime-{'on' if runtime_checks else 'off'}{policy}"


def _case_param(case: Case) -> pytest.ParameterSet:
    marks: list[pytest.MarkDecorator] = []
    if case.gpu_only:
        marks += NEEDS_GPU
    if case.cpu_only:
        marks.append(pytest.mark.skipif(HAS_CUDA, reason="an expectation for Triton's CPU interpreter"))
    if case.slow:
        marks.append(pytest.mark.slow)
    if case.bug:
        marks.append(pytest.mark.xfail(strict=True, reason=f"evaluator bug: {case.bug}"))
    return pytest.param(case, id=case.name, marks=marks)


def _control_params() -> list[pytest.ParameterSet]:
    params = []
    for control in CONTROLS:
        # The Triton control runs twice per combination: anywhere, and marked gpu so that `-m gpu` checks it
        # with the GPU cases. A CUDA control runs only on a GPU (its ids keep the control's name in front).
        runs = (("", []), ("-gpu", NEEDS_GPU)) if not control.gpu_only else (("-gpu", NEEDS_GPU),)
        prefix = "" if control.name == "seed_control" else f"{control.name}-"
        for suffix, marks in runs:
            for checks in combinations_for(control):
                params.append(pytest.param(control, checks, id=prefix + _checks_id(checks) + suffix, marks=marks))
    return params


@pytest.mark.parametrize(("control", "checks"), _control_params())
def test_control_seed_is_accepted(control: Control, checks: tuple[bool, bool, str],
                                  evaluator_for: EvaluatorFor) -> None:
    """The correct seed kernel passes under every options combination its spec's cases use."""
    result = evaluator_for(*checks, spec=control.spec).evaluate(control.source())
    assert result.correct, (
        f"the correct kernel {control.name} was rejected under {_checks_id(checks)}: {_describe(result)}"
    )
    assert result.error is None, _describe(result)


@pytest.mark.parametrize("case", [_case_param(c) for c in CASES])
def test_attack_is_rejected(case: Case, evaluator_for: EvaluatorFor) -> None:
    evaluator = evaluator_for(*case.checks, spec=case.spec)
    result = evaluator.evaluate(case.source())
    what = f"{case.name} ({case.file}, {_checks_id(case.checks)}): expected {case.expected.value}"
    assert result.correct is False, f"{what}, but the evaluator ACCEPTED it: {_describe(result)}"
    assert result.error == case.expected, f"{what}, got {result.error}: {_describe(result)}"
    if case.control_after:
        control = control_for(case.spec)
        after = evaluator.evaluate(control.source())
        assert after.correct and after.error is None, (
            f"after {case.name}, the honest {control.name} was rejected by the same evaluator: {_describe(after)}"
        )


def test_every_kernel_file_is_a_documented_case() -> None:
    """Each module in kernels/ is used by a case (or is the control) and opens with a docstring."""
    used = {c.file for c in CASES} | {c.path.name for c in CONTROLS if c.path.parent == KERNELS}
    files = sorted(p.name for p in KERNELS.glob("*.py"))
    assert sorted(used) == files, f"unused kernel files: {sorted(set(files) - used)}"
    for name in files:
        text = (KERNELS / name).read_text()
        try:
            documented = bool(ast.get_docstring(ast.parse(text)))
        except SyntaxError:  # the syntax-error case: its docstring follows the Markdown fence
            documented = '"""' in "".join(text.splitlines(keepends=True)[:2])
        assert documented, f"kernels/{name} has no module docstring"
