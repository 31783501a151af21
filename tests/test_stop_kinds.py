"""Each way a run stops leaves its kind (StopReason) beside its sentence: in the outcome, in runs.stop_kind,
in RunInfo, and in list_runs' filter. Runs are driven on simulated evaluators (kernelevo.distributed.simulated)
where the kind does not depend on what an evaluation says, and on the CPU interpreter where it does."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from kernelevo.distributed.simulated import SimulatedPool
from kernelevo.driver import RunOutcome, RunSetupError, new_run, run_search, start_search
from kernelevo.evaluation import EvalOptions
from kernelevo.records.run import RunStatus, StopReason
from kernelevo.records.run_config import Budget, LLMConfig, RunConfig
from kernelevo.search.scheduler import Scheduler
from kernelevo.spec import Spec, read_spec
from kernelevo.storage.database import Database
from kernelevo.storage.runs import create_run, fail_unended_run, get_run, list_runs, run_info, save_spec, stop_run

ROOT = Path(__file__).resolve().parents[1]
CPU = EvalOptions(device="cpu")


@pytest.fixture  # cheap: a module scope would keep the file on one worker
def gelu() -> Spec:
    return read_spec(str(ROOT / "examples" / "gelu" / "spec.py"))


def simulated(db: Database, spec: Spec, budget: Budget, tmp_path: Path,
              on_start: Callable[[Scheduler], None] | None = None, delay_s: float = 0.01) -> RunOutcome:
    config = RunConfig(budget=budget, workers=4, ray=False, evaluation=CPU)
    return asyncio.run(start_search(db, spec, config, out=tmp_path / "run", pool=SimulatedPool(4, delay_s),
                                    on_start=on_start))


def assert_stored(db: Database, run_id: int, kind: StopReason, reason: str) -> None:
    """The run's row holds the kind and sentence, with the kind's status; list_runs finds it by its kind."""
    with db.session() as session:
        info = run_info(session, get_run(session, run_id))
        assert (info.status, info.stop_kind, info.stop_reason) == (kind.status, kind, reason)
        assert [r.id for r in list_runs(session, stop_kind=kind)[0]] == [run_id]
        others = next(k for k in StopReason if k != kind)
        assert run_id not in [r.id for r in list_runs(session, stop_kind=others.value)[0]]


@pytest.mark.parametrize(("budget", "kind", "reason"), [
    (Budget(evaluations=3), StopReason.BUDGET_EVALUATIONS, "evaluation budget (3) reached"),
    (Budget(evaluations=None, minutes=0.001), StopReason.BUDGET_TIME, "time budget (0.001 min) reached"),
    (Budget(evaluations=None, tokens=0), StopReason.BUDGET_TOKENS, "token budget (0) reached"),
    (Budget(evaluations=None, dollars=0), StopReason.BUDGET_DOLLARS, "dollar budget ($0) reached"),
])
def test_each_budget_finishes_the_run_with_its_kind(gelu: Spec, tmp_path: Path, db: Database, budget: Budget,
                                                   kind: StopReason, reason: str) -> None:
    outcome = simulated(db, gelu, budget, tmp_path)
    assert (outcome.kind, outcome.reason, outcome.status) == (kind, reason, RunStatus.FINISHED)
    assert_stored(db, outcome.run_id, kind, reason)


def test_a_stop_from_the_library_is_the_users(gelu: Spec, tmp_path: Path, db: Database) -> None:
    outcome = simulated(db, gelu, Budget(evaluations=10_000), tmp_path, on_start=lambda loop: loop.stop())
    assert (outcome.kind, outcome.status) == (StopReason.STOPPED_BY_USER, RunStatus.STOPPED)
    assert_stored(db, outcome.run_id, StopReason.STOPPED_BY_USER, "stopped by the user")


def send_soon(*signals: signal.Signals) -> Callable[[Scheduler], None]:
    """An on_start that sends this process ``signals`` once the driver's handlers are set (just after it)."""
    def on_start(loop: Scheduler) -> None:
        event_loop = asyncio.get_running_loop()
        for i, sig in enumerate(signals):
            event_loop.call_later(0.2 + 0.2 * i, os.kill, os.getpid(), sig)
    return on_start


@pytest.mark.parametrize(("sig", "kind", "reason"), [
    (signal.SIGINT, StopReason.CTRL_C, "stopped by Ctrl-C"),
    (signal.SIGTERM, StopReason.SIGTERM, "stopped (SIGTERM)"),
])
def test_a_signal_stops_the_run_with_its_kind(gelu: Spec, tmp_path: Path, db: Database, sig: signal.Signals,
                                              kind: StopReason, reason: str) -> None:
    outcome = simulated(db, gelu, Budget(evaluations=10_000), tmp_path, on_start=send_soon(sig))
    assert (outcome.kind, outcome.reason, outcome.status) == (kind, reason, RunStatus.STOPPED)
    assert 0 < outcome.state.evaluated_count() < 10_000
    assert_stored(db, outcome.run_id, kind, reason)


def test_ctrl_c_twice_interrupts_the_run(gelu: Spec, tmp_path: Path, db: Database) -> None:
    from kernelevo.driver import INTERRUPTED

    with pytest.raises(asyncio.CancelledError):  # (evaluations of 10 s: the second press comes while they run)
        simulated(db, gelu, Budget(evaluations=10_000), tmp_path, on_start=send_soon(signal.SIGINT, signal.SIGINT),
                  delay_s=10.0)
    with db.session() as session:
        (row,), _ = list_runs(session)
        run_id = row.id
    assert_stored(db, run_id, StopReason.INTERRUPTED, INTERRUPTED)


def test_a_driver_that_raises_fails_the_run(gelu: Spec, tmp_path: Path, db: Database) -> None:
    llm = LLMConfig(model="openai/gpt-4o-mini", api_key_env="KERNELEVO_TEST_KEY_NEVER_SET")
    config = RunConfig(budget=Budget(evaluations=3), ray=False, evaluation=CPU, llm=llm)
    run_id = new_run(db, gelu, config, owner="test", out=tmp_path / "run")
    with pytest.raises(RunSetupError, match="KERNELEVO_TEST_KEY_NEVER_SET") as raised:
        asyncio.run(run_search(db, run_id, pool=SimulatedPool(1, 0.01)))
    assert_stored(db, run_id, StopReason.DRIVER_FAILED, f"RunSetupError: {raised.value}")


WRONG_SEED = '''"""gelu's shape, but x + 1: wrong."""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_one(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + 1.0, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        add_one[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
        return out
'''


def test_a_run_whose_every_seed_is_wrong_fails_for_want_of_a_correct_seed(gelu: Spec, tmp_path: Path,
                                                                           db: Database) -> None:
    """Judged for real, on the CPU interpreter: the one seed is wrong, so nothing can be varied."""
    from kernelevo.search.pool import LocalEvaluatorPool

    config = RunConfig(budget=Budget(evaluations=5), ray=False, evaluation=CPU, seed_from="spec")
    # the one seed: not gelu's own (they are correct)
    run_id = new_run(db, gelu, config, owner="test", out=tmp_path / "run", seeds=[("wrong", WRONG_SEED)])
    outcome = asyncio.run(run_search(db, run_id, pool=LocalEvaluatorPool(gelu, CPU, workers=1)))
    assert outcome.state.evaluated_count() >= 1 and outcome.state.correct_count() == 0
    assert (outcome.kind, outcome.status) == (StopReason.NO_CORRECT_SEED, RunStatus.FAILED)
    # every seed gave a wrong output: the stop says how to check the tolerance against the reference's rounding
    assert "all as wrong output" in outcome.reason and "kernelevo spec" in outcome.reason
    assert "the closest missed on" in outcome.reason and "atol 0.0001" in outcome.reason  # by how much
    assert_stored(db, run_id, StopReason.NO_CORRECT_SEED, outcome.reason)


def test_a_run_with_no_seed_at_all_says_it_had_nothing_to_start_from(gelu: Spec, tmp_path: Path,
                                                                      db: Database) -> None:
    """No seed given and none asked of torch.compile: nothing is judged, and the stop says why, not that every
    seed was rejected (there was none)."""
    from kernelevo.search.pool import LocalEvaluatorPool

    config = RunConfig(budget=Budget(evaluations=5), ray=False, evaluation=CPU, seed_from="spec")
    run_id = new_run(db, gelu, config, owner="test", out=tmp_path / "run", seeds=[])
    outcome = asyncio.run(run_search(db, run_id, pool=LocalEvaluatorPool(gelu, CPU, workers=1)))
    assert outcome.state.evaluated_count() == 0
    assert (outcome.kind, outcome.status) == (StopReason.NO_SEED, RunStatus.FAILED)
    assert "nothing to start from" in outcome.reason and "--seed-from spec" in outcome.reason
    assert "rejected" not in outcome.reason
    assert_stored(db, run_id, StopReason.NO_SEED, outcome.reason)


def test_a_spec_the_judge_refuses_fails_the_run_as_a_spec_error(tmp_path: Path, db: Database) -> None:
    """A reference about 100x float32's default tolerance from float64 (spec/precision.py): the judge refuses it
    as it starts, and the run says so in its own kind, with the tolerance the spec would need."""
    from kernelevo.search.pool import LocalEvaluatorPool
    from kernelevo.spec import SpecError

    spec = read_spec(str(ROOT / "tests" / "spec" / "specs" / "ill_conditioned.py"))
    config = RunConfig(budget=Budget(evaluations=2), ray=False, evaluation=CPU, seed_from="spec")
    run_id = new_run(db, spec, config, owner="test", out=tmp_path / "run", seeds=[])
    with pytest.raises(SpecError, match=r"atol = rtol = 0\.03") as raised:
        asyncio.run(run_search(db, run_id, pool=LocalEvaluatorPool(spec, CPU, workers=1)))
    assert_stored(db, run_id, StopReason.SPEC_ERROR, f"the judge could not take the spec: {raised.value}")


def test_stops_outside_a_driver_have_their_kinds(gelu: Spec, db: Database) -> None:
    """A queued run stopped through the API; one whose driver's process ended without ending it (the launcher)."""
    with db.session() as session:
        spec_id = save_spec(session, gelu).id
        queued, orphaned = (create_run(session, spec_id=spec_id, config={}, owner="test").id for _ in range(2))
    with db.session() as session:
        stop_run(get_run(session, queued))
        assert fail_unended_run(get_run(session, orphaned), "the run's driver ended before finishing it (exit 1)")
    assert_stored(db, queued, StopReason.STOPPED_BEFORE_START, "stopped before it started")
    assert_stored(db, orphaned, StopReason.DRIVER_ENDED, "the run's driver ended before finishing it (exit 1)")


def test_every_kind_leaves_a_status_that_ends_the_run() -> None:
    assert {k.status for k in StopReason} == {RunStatus.FINISHED, RunStatus.STOPPED, RunStatus.FAILED,
                                              RunStatus.INTERRUPTED}
    assert StopReason.LLM_FAILED.status == RunStatus.FAILED and StopReason.EXHAUSTED.status == RunStatus.FINISHED


def test_operators_that_make_nothing_new_finish_the_run(gelu: Spec, tmp_path: Path, db: Database) -> None:
    """With the limit at one try, the first produce that makes nothing new (a kernel made before) ends it."""
    def one_idle_try(loop: Scheduler) -> None:
        loop.max_idle_produces = 1

    outcome = simulated(db, gelu, Budget(evaluations=10_000), tmp_path, on_start=one_idle_try)
    assert (outcome.kind, outcome.status) == (StopReason.IDLE_OPERATORS, RunStatus.FINISHED)
    assert outcome.reason.startswith("the operators made nothing new in 1 tries in a row")
    assert_stored(db, outcome.run_id, StopReason.IDLE_OPERATORS, outcome.reason)
