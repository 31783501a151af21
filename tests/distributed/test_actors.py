"""The evaluator actor's body (kernelevo.distributed.actors), run in this process: real judges on the CPU."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelevo.distributed.actors import EvaluatorActor
from kernelevo.evaluation import EvalOptions
from kernelevo.spec import read_spec

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]


def test_a_prepared_judges_start_is_carried_by_no_result_and_a_lazy_ones_by_the_first() -> None:
    """The shared pool prepares a run's judge on every actor before sending any of its candidates: no candidate
    waited for that start, so none carries its cost (a second run on another actor once showed the first run's
    10.7 s start, in a run of 7.3 s). A judge started by its first candidate still tells that candidate."""
    spec = read_spec(str(ROOT / "examples" / "gelu" / "spec.py"))
    source = (ROOT / "examples" / "gelu" / "seed.py").read_text()
    prepared, lazy = EvalOptions(device="cpu"), EvalOptions(device="cpu", correctness_trials=1)
    actor = EvaluatorActor(prepared)
    try:
        assert actor.prepare(spec) is None
        after_prepare = actor.evaluate(spec, source)
        first_lazy, second_lazy = (actor.evaluate(spec, source, options=lazy) for _ in range(2))
    finally:
        actor.close()
    assert after_prepare.correct and after_prepare.costs.judge_start_s == 0 and after_prepare.costs.baselines_s < 0.01
    assert first_lazy.correct and first_lazy.costs.judge_start_s > 0
    assert second_lazy.correct and second_lazy.costs.judge_start_s == 0
