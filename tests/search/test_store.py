"""The run store: creating a run, appending records and reading them back, crash-truncated lines, spec checks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kernelevo.records.candidate import Candidate, Evaluated, OperatorFailure, Usage
from kernelevo.records.result import EvalResult, KernelMetadata, Stage, Timing
from kernelevo.search.store import RunMismatch, RunStore
from kernelevo.variation.metaprompt import PromptArchive

SHA = "a" * 64


def created(tmp_path: Path) -> RunStore:
    store = RunStore(tmp_path / "run")
    store.create(spec_name="gelu", spec_sha256=SHA, config={"budget": 10, "operators": ["template"]})
    return store


def candidate(i: int, **fields: object) -> Candidate:
    return Candidate(**{"id": i, "source": f"# kernel {i}\nBLOCK = {1 << i}\n", "operator": "template", **fields})


def evaluated(i: int) -> Evaluated:
    result = EvalResult(correct=True, stage=Stage.VERDICT, speedup_eager=1.5,
                        kernel=Timing(median_ms=0.2, iqr_ms=0.004, min_ms=0.19, mean_ms=0.21, repetitions=50,
                                      method="cuda_events"),
                        kernels=[KernelMetadata(name="gelu_kernel", launches=1, registers=32, num_warps=4)])
    return Evaluated(candidate_id=i, hardware="h200", result=result, objective=0.405, measures=[1.5, 1.5, 0.5],
                     archive_status="new_cell")


def test_create_writes_the_run_and_check_returns_it(tmp_path: Path) -> None:
    store = created(tmp_path)
    assert store.exists()
    meta = store.check(SHA)
    assert (meta["spec"], meta["spec_sha256"], meta["config"]) == ("gelu", SHA, {"budget": 10,
                                                                               "operators": ["template"]})
    assert meta["started_at"] > 0


def test_create_refuses_an_existing_run(tmp_path: Path) -> None:
    created(tmp_path)
    again = RunStore(tmp_path / "run")
    with pytest.raises(FileExistsError, match="already holds a run"):
        again.create(spec_name="other", spec_sha256="b" * 64, config={})
    assert again.check(SHA)["spec"] == "gelu"  # the first run is untouched


def test_check_raises_for_another_spec(tmp_path: Path) -> None:
    store = created(tmp_path)
    with pytest.raises(RunMismatch, match="another spec"):
        store.check("b" * 64)


def test_a_fresh_store_reads_nothing(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "nothing")
    assert not store.exists()
    assert (store.candidates(), store.evaluations(), store.failures(), store.prompts()) == ([], [], [], None)


def test_records_round_trip(tmp_path: Path) -> None:
    store = created(tmp_path)
    candidates = [candidate(0, operator="seed"),
                  candidate(1, parent_ids=[0], prompt_id=2, island=1, note="BLOCK 1 -> 2",
                            usage=Usage(calls=1, prompt_tokens=100, completion_tokens=20, cost_usd=0.01, model="m"))]
    for c in candidates:
        store.add_candidate(c)
    evaluation = evaluated(0)
    store.add_evaluation(evaluation)
    failure = OperatorFailure(operator="llm-diff", kind="diff_failed", message="SEARCH block 1 matches nothing",
                              parent_ids=[1], usage=Usage(calls=1, cost_known=False))
    store.add_failure(failure)
    assert store.candidates() == candidates
    assert store.evaluations() == [evaluation]
    read_back = store.evaluations()[0]
    assert read_back.correct
    assert read_back.result.kernel is not None and read_back.result.kernel.relative_iqr == pytest.approx(0.02)
    assert read_back.result.kernels[0].registers == 32
    assert store.failures() == [failure]


def test_records_are_appended_one_per_line(tmp_path: Path) -> None:
    store = created(tmp_path)
    for i in range(3):
        store.add_candidate(candidate(i))
    lines = (store.dir / "candidates.jsonl").read_text().splitlines()
    assert [json.loads(line)["id"] for line in lines] == [0, 1, 2]


def test_prompts_round_trip_and_are_rewritten(tmp_path: Path) -> None:
    store = created(tmp_path)
    prompts = PromptArchive.with_default()
    store.save_prompts(prompts)
    assert store.prompts() == prompts
    prompts.record(0, 0.5, candidate_id=3)
    prompts.add({"philosophy": "p", "strategies": "s", "pitfalls": "f", "analysis": "a"}, parent_id=0,
                mutation="simplify")
    store.save_prompts(prompts)
    again = store.prompts()
    assert again == prompts
    assert again is not None and [p.id for p in again.prompts] == [0, 1] and again.prompts[0].fitness == 0.5
    assert not list(store.dir.glob(".*.tmp"))  # the atomic write left no temporary file


def test_a_line_cut_short_by_a_crash_is_ignored(tmp_path: Path) -> None:
    store = created(tmp_path)
    for i in range(3):
        store.add_candidate(candidate(i))
    store.add_evaluation(evaluated(0))
    line = candidate(3).model_dump_json()
    with open(store.dir / "candidates.jsonl", "a") as f:
        f.write(line[: len(line) // 2])  # the process died mid-write
    with open(store.dir / "evaluations.jsonl", "a") as f:
        f.write('{"candidate_id": 1, "hardw')
    assert [c.id for c in RunStore(store.dir).candidates()] == [0, 1, 2]
    assert [e.candidate_id for e in RunStore(store.dir).evaluations()] == [0]


def test_records_appended_after_a_crash_are_read(tmp_path: Path) -> None:
    store = created(tmp_path)
    store.add_candidate(candidate(0))
    line = candidate(1).model_dump_json()
    with open(store.dir / "candidates.jsonl", "a") as f:
        f.write(line[: len(line) // 2])  # the process died mid-write
    resumed = RunStore(store.dir)
    resumed.add_candidate(candidate(2))
    resumed.add_candidate(candidate(3))
    assert [c.id for c in resumed.candidates()] == [0, 2, 3]
