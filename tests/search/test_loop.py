"""Whole searches on the CPU: offline, with a scripted LLM, resumed, and after a killed driver."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from llm_server import Reply, ScriptedLLMServer, kernel_responder

from kernelevo.archive.descriptors import descriptor_set
from kernelevo.driver import run_search, start_search
from kernelevo.evaluation import EvalOptions
from kernelevo.records.candidate import Usage
from kernelevo.records.run_config import Budget, LLMConfig, RunConfig
from kernelevo.search.state import replay
from kernelevo.spec import read_spec
from kernelevo.storage.recorder import load_run
from kernelevo.variation.llm.metaprompt import MUTATIONS

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
CPU = EvalOptions(device="cpu")


@pytest.fixture  # cheap: a module scope would keep the file on one worker
def gelu():
    return read_spec(str(ROOT / "examples" / "gelu" / "spec.py"))


def config(evaluations: int, **kw) -> RunConfig:
    # in-process evaluators: these tests are about the loop (tests/distributed runs it on Ray)
    return RunConfig(budget=Budget(evaluations=evaluations), evaluation=CPU, ray=False, **kw)


def counts(usage: Usage) -> tuple[int, int, int, float]:
    """Calls, tokens and dollars (to a nano-dollar: sums taken in another order differ in the last digits)."""
    return usage.calls, usage.prompt_tokens, usage.completion_tokens, round(usage.cost_usd, 9)


def test_offline_search_fills_the_archive(gelu, tmp_path: Path, db) -> None:
    outcome = asyncio.run(start_search(db, gelu, config(10), out=tmp_path / "run"))
    state = outcome.state
    assert outcome.reason == "evaluation budget (10) reached" and outcome.status == "finished"
    assert state.evaluated_count() == 10 and state.correct_count() >= 2
    archive = state.archives[(0, "cpu-interpreter")]
    assert len(archive) >= 2  # the two seeds sit in different cells
    assert Counter(c.operator for c in state.candidates.values())["template"] >= 1
    assert state.usage.calls == 0  # no LLM
    stored = load_run(db, outcome.run_id).evaluations
    assert len(stored) == 10 and len({e.candidate_id for e, _ in stored}) == 10
    best = (tmp_path / "run" / "export" / "cpu-interpreter" / "gelu" / "best.py").read_text()
    assert f'spec sha256: "{gelu.sha256}"' in best and "class ModelNew" in best and "not a GPU speed" in best
    document = json.loads((tmp_path / "run" / "export" / "cpu-interpreter" / "gelu" / "archive.json").read_text())
    assert len(document["elites"]) == len(archive) and document["elites"][0]["source"]


def test_resume_continues_with_nothing_lost(gelu, tmp_path: Path, db) -> None:
    first_run = asyncio.run(start_search(db, gelu, config(5), out=tmp_path / "run"))
    first = load_run(db, first_run.run_id).evaluations
    outcome = asyncio.run(run_search(db, first_run.run_id, config_updates={"budget": {"evaluations": 9}}))
    after = load_run(db, first_run.run_id).evaluations
    assert outcome.state.evaluated_count() == 9 == len(after)
    assert [e.candidate_id for e, _ in after[:5]] == [e.candidate_id for e, _ in first]
    assert len({e.candidate_id for e, _ in after}) == 9  # nothing evaluated twice
    assert outcome.progress.evaluations == 9 and outcome.loop.started_evaluations == 5


@pytest.mark.parametrize("islands", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_killed_driver_resumes(tmp_path: Path, islands: int) -> None:
    """SIGKILL mid-run: the resumed run keeps every evaluation, in order, and evaluates each candidate once.
    One island judges in the driver's process (its children killed with it); two islands run on Ray, and every
    island is rebuilt from storage by the resumed driver (Ray's start paid once, where it is what is tested)."""
    from kernelevo.storage.database import open_database

    path = tmp_path / "kernelevo.db"
    cmd = [sys.executable, "-m", "kernelevo.cli", "run", "--db", str(path), "--device", "cpu", "--plain",
           "--islands", str(islands), *(["--no-ray"] if islands == 1 else [])]
    driver = subprocess.Popen([*cmd, str(ROOT / "examples" / "gelu" / "spec.py"), "--budget", "evals=40"],
                              start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    count = 0
    while time.monotonic() < deadline and count < 4:
        time.sleep(0.5)
        if path.exists():
            count = len(load_run(open_database(f"sqlite:///{path}"), 1).evaluations)
    os.killpg(driver.pid, signal.SIGKILL)  # the driver and its judges, as a crash would
    driver.wait()
    db = open_database(f"sqlite:///{path}")
    before, made = load_run(db, 1).evaluations, load_run(db, 1).candidates
    assert len(before) >= 4
    listed = subprocess.run([sys.executable, "-m", "kernelevo.cli", "runs", "--db", str(path), "--json"],
                            capture_output=True, text=True, timeout=120)
    assert json.loads(listed.stdout)[0]["status"] == "interrupted"  # its driver is gone: no lease holds the run
    done = subprocess.run([*cmd, "--resume", "1", "--budget", f"evals={len(made) + 2}"], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    ids = [e.candidate_id for e, _ in load_run(db, 1).evaluations]
    assert ids[:len(before)] == [e.candidate_id for e, _ in before]  # kept, in order
    assert len(ids) == len(set(ids))  # none counted twice
    assert {c.id for c in made} <= set(ids)  # made before the kill, evaluated after the resume
    assert {c.island for c in load_run(db, 1).candidates} == set(range(islands))  # every island made some


def test_a_paused_driver_taken_over_writes_nothing_and_a_refused_resume_changes_nothing(tmp_path: Path) -> None:
    """A driver paused (SIGSTOP) past its lease is taken over by ``--resume`` from another shell; continued
    (SIGCONT), it writes nothing more: every candidate is evaluated once and the budget is exact. A resume
    refused while the run is driven stores none of its settings."""
    from datetime import timedelta

    from kernelevo.storage.database import open_database, utcnow
    from kernelevo.storage.tables import RunRow

    path = tmp_path / "kernelevo.db"
    cmd = [sys.executable, "-m", "kernelevo.cli", "run", "--db", str(path), "--device", "cpu", "--plain", "--no-ray"]
    first = subprocess.Popen([*cmd, str(ROOT / "examples" / "gelu" / "spec.py"), "--budget", "evals=40"],
                             start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline, count = time.monotonic() + 300, 0
        while time.monotonic() < deadline and count < 3:
            time.sleep(0.5)
            if path.exists():
                count = len(load_run(open_database(f"sqlite:///{path}"), 1).evaluations)
        assert count >= 3
        refused = subprocess.run([*cmd, "--resume", "1", "--budget", "evals=41"], capture_output=True, text=True,
                                 timeout=300)
        assert refused.returncode != 0 and "being driven" in refused.stderr
        db = open_database(f"sqlite:///{path}")
        with db.session() as session:
            row = session.get(RunRow, 1)
            assert row.config["budget"]["evaluations"] == 40  # unchanged
            assert row.status == "running" and row.lease_owner.split(":")[1] == str(first.pid)
        os.kill(first.pid, signal.SIGSTOP)
        with db.session() as session:  # as if the pause outlasted the lease (30 s)
            session.get(RunRow, 1).lease_expires_at = utcnow() - timedelta(seconds=1)
        budget = len(load_run(db, 1).evaluations) + 3
        second = subprocess.run([*cmd, "--resume", "1", "--budget", f"evals={budget}"], capture_output=True,
                                text=True, timeout=600)
        assert second.returncode == 0, second.stderr[-2000:]
        os.kill(first.pid, signal.SIGCONT)
        _, err = first.communicate(timeout=300)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(first.pid, signal.SIGKILL)
    ids = [e.candidate_id for e, _ in load_run(db, 1).evaluations]
    assert len(ids) == budget  # exact: nothing written by the first driver once the second held the run
    assert len(ids) == len(set(ids))  # no candidate evaluated twice
    assert "taken over" in err, err[-2000:]  # and it says why it stopped
    with db.session() as session:
        assert session.get(RunRow, 1).status == "finished"  # the second driver's verdict stands


def test_llm_search_with_meta_prompt_evolution(gelu, tmp_path: Path, llm_server: ScriptedLLMServer,
                                               monkeypatch: pytest.MonkeyPatch, db) -> None:
    llm_server.responder = kernel_responder((ROOT / "examples" / "gelu" / "seed.py").read_text())
    monkeypatch.setenv("KERNELEVO_TEST_KEY", "sk-test")
    llm = LLMConfig(model="openai/gpt-4o-mini", api_base=llm_server.base_url, api_key_env="KERNELEVO_TEST_KEY",
                    max_retries=0)
    outcome = asyncio.run(start_search(db, gelu, config(14, llm=llm, evolve_prompts_every=3, in_flight=3),
                                       out=tmp_path / "run"))
    state = outcome.state
    made_by_llm = [c for c in state.candidates.values() if c.operator.startswith("llm")]
    assert made_by_llm, Counter(c.operator for c in state.candidates.values())
    for candidate in made_by_llm:  # lineage points at real parents; each carries its own tokens
        assert candidate.parent_ids and all(p in state.candidates for p in candidate.parent_ids)
        assert candidate.usage.calls == 1 and candidate.usage.tokens == 150 and candidate.prompt_id is not None
    # every call counted: kernels, failures, prompt evolutions, and the asks the budget's stop cut short
    # (charged once handed to the provider, which the server may not have read yet)
    served, cut = len(llm_server.requests), sum(f.kind == "cut_short" for f in state.failures)
    assert state.usage.calls - cut <= served <= state.usage.calls
    replayed = replay(load_run(db, outcome.run_id), descriptors=descriptor_set("levels"), tie_tolerance=0.08,
                      operators=list(state.bandit.stats))
    assert counts(replayed.usage) == counts(state.usage)  # and stored: a resumed run's budgets count them
    assert state.usage.cost_known and state.usage.cost_usd > 0
    evolved = [p for p in state.prompts.prompts if p.parent_id is not None]
    assert evolved and evolved[0].mutation in MUTATIONS and "Evolved advice" in evolved[0].render()
    assert any(f.kind == "unusable_reply" for f in state.failures)
    stored = load_run(db, outcome.run_id).prompts
    assert stored is not None and len(stored.prompts) == len(state.prompts.prompts)
    assert re.search(r"llm-", " ".join(state.bandit.stats))


def test_asks_cut_short_by_the_budget_count_their_prompts(gelu, tmp_path: Path, llm_server: ScriptedLLMServer,
                                                         monkeypatch: pytest.MonkeyPatch, db) -> None:
    """A model slower than the run: the template operator's kernels reach the budget while every LLM call is
    still waiting. Each call is charged its prompt's tokens, as a failure of kind cut_short, stored."""
    llm_server.responder = lambda request: Reply(content="too late", delay_s=60)
    monkeypatch.setenv("KERNELEVO_TEST_KEY", "sk-test")
    llm = LLMConfig(model="openai/gpt-4o-mini", api_base=llm_server.base_url, api_key_env="KERNELEVO_TEST_KEY",
                    max_retries=0, timeout_s=120)
    started = time.monotonic()
    outcome = asyncio.run(start_search(db, gelu, config(6, llm=llm, in_flight=4), out=tmp_path / "run"))
    assert time.monotonic() - started < 55  # the run did not wait for the slow replies
    state, sent = outcome.state, len(llm_server.requests)
    cut = [f for f in state.failures if f.kind == "cut_short"]
    assert sent and len(cut) == sent and state.usage.calls == sent  # every call sent is charged, once
    assert all(f.usage.prompt_tokens > 100 and f.usage.completion_tokens == 0 for f in cut)
    assert state.usage.tokens == sum(f.usage.prompt_tokens for f in cut) and state.usage.cost_usd > 0
    stored = replay(load_run(db, outcome.run_id), descriptors=descriptor_set("levels"), tie_tolerance=0.08,
                    operators=list(state.bandit.stats))
    assert counts(stored.usage) == counts(state.usage)  # a resumed run's token and dollar budgets count them too


def test_freed_evaluators_get_their_next_candidates_before_the_results_are_told(examples_dir: Path, tmp_path: Path,
                                                                              db) -> None:
    """Results that land together are told after the evaluators they freed have new candidates: at some
    evaluation's start, results have come back that the search state has not been told yet (and every
    result is told in the end)."""
    from kernelevo.distributed.simulated import SimulatedPool

    told = 0

    def on_event(kind: str) -> None:
        nonlocal told
        told += kind == "evaluation"

    class Recording(SimulatedPool):
        def __init__(self, workers: int, delay_s: float) -> None:
            super().__init__(workers, delay_s)
            self.returned = 0
            self.untold_at_start: list[int] = []  # results returned but not yet told, at each evaluation's start

        async def evaluate(self, candidate, races=None):  # type: ignore[no-untyped-def]
            self.untold_at_start.append(self.returned - told)
            results = await super().evaluate(candidate, races)
            self.returned += 1
            return results

    spec = read_spec(str(examples_dir / "matmul_epilogue" / "spec.py"))  # many tunables: no early exhaustion
    pool = Recording(8, 0.05)
    outcome = asyncio.run(start_search(db, spec, config(48, workers=8), out=tmp_path / "run", pool=pool,
                                       on_event=on_event))
    assert outcome.status == "finished" and told == pool.returned == 48
    assert max(pool.untold_at_start) > 0, pool.untold_at_start


def test_an_evaluator_that_raises_loses_no_candidate(examples_dir: Path, tmp_path: Path, db) -> None:
    """A pool that raises for some candidates (a bug of the evaluator's, as a fork server out of step once
    was): each such candidate is recorded with a named evaluator error, the others as usual, and the run
    ends on its budget, not as 'exhausted'."""
    from kernelevo.distributed.simulated import SimulatedPool

    class Flaky(SimulatedPool):
        raised = 0

        async def evaluate(self, candidate, races=None):  # type: ignore[no-untyped-def]
            if candidate.id % 3 == 2:
                Flaky.raised += 1
                raise AssertionError("start() the sandbox first")
            return await super().evaluate(candidate, races)

    spec = read_spec(str(examples_dir / "matmul_epilogue" / "spec.py"))
    outcome = asyncio.run(start_search(db, spec, config(30, workers=4), out=tmp_path / "run", pool=Flaky(4, 0.01)))
    assert outcome.status == "finished" and outcome.reason == "evaluation budget (30) reached"
    stored = [e for e, _ in load_run(db, outcome.run_id).evaluations]  # what the store kept
    errors = [e for e in stored if e.result.error == "evaluator_error"]
    assert Flaky.raised > 0 and len(errors) == Flaky.raised
    assert all("the evaluator failed, not the kernel: AssertionError" in (e.result.message or "") for e in errors)
    assert len(stored) == outcome.state.evaluated_count() == 30


def test_seeds_are_judged_when_a_budget_is_reached_before_them(gelu, tmp_path: Path, db) -> None:
    """Making seeds may outlast a short budget (torch.compile's captures): they are judged all the same, and
    nothing else is; the time they took to make is reported apart."""
    outcome = asyncio.run(start_search(db, gelu, config(1), out=tmp_path / "run"))
    seeds = [c for c in outcome.state.candidates.values() if c.operator == "seed"]
    assert len(seeds) == 2
    assert outcome.reason == "evaluation budget (1) reached"
    assert outcome.state.evaluated_count() == 2  # both seeds, and no variation of them
    assert {e.candidate_id for e, _ in load_run(db, outcome.run_id).evaluations} == {c.id for c in seeds}
    assert outcome.progress.seeding_s >= 0 and outcome.progress.search_s <= outcome.progress.session_s


def test_the_time_budget_stops_the_run_at_its_deadline_not_when_a_judge_next_answers(gelu, tmp_path: Path,
                                                                                   db) -> None:
    """Judges slower than the whole budget: the run stops at the budget's deadline (LLM asks are cut there,
    no evaluation starts after it), and the evaluations under way then are still told and kept."""
    from kernelevo.distributed.simulated import SimulatedPool

    run_config = RunConfig(budget=Budget(minutes=0.01), evaluation=CPU, ray=False, workers=2)
    outcome = asyncio.run(start_search(db, gelu, run_config, out=tmp_path / "run", pool=SimulatedPool(2, 3.0)))
    assert outcome.reason == "time budget (0.01 min) reached"
    stopped_after_s = outcome.loop.stopped_after_s
    assert stopped_after_s is not None and 0.6 <= stopped_after_s < 2.0  # 0.6 s; the seeds' judges answer at 3 s
    assert outcome.state.evaluated_count() == 2  # both seeds, judged after the stop
