"""``kernelevo import``: exported archives and run directories of the file store, into the database, once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kernelevo.importer import ImportError_, import_path
from kernelevo.records.candidate import Candidate, Evaluated, OperatorFailure
from kernelevo.records.result import EvalResult, Stage, Timing, floor_name
from kernelevo.storage import queries
from kernelevo.storage.recorder import load_run
from kernelevo.storage.runs import get_run

ROOT = Path(__file__).resolve().parent.parent


def test_the_exported_archives_come_in_as_finished_runs(db, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the specs are found under examples/ and benchmarks/ by their hash
    lines = import_path(db, ROOT / "archives", spec_files=[])
    exported = sorted(ROOT.glob("archives/*/*/archive.json"))
    assert len(lines) == len(exported) >= 5
    assert all(f"elites on {path.parent.parent.name})" in line for line, path in zip(lines, exported, strict=True))
    floors: set[str | None] = set()
    with db.session() as session:
        for run_id, path in enumerate(exported, 1):
            run, hardware = get_run(session, run_id), path.parent.parent.name
            assert run.status == "finished" and run.hardware == hardware and run.best_speedup_eager is not None
            elites = queries.archive(session, run_id, hardware)
            document = json.loads(Path(run.config["imported_from"]).read_text())
            assert sorted(e.objective for e in elites) == sorted(e["objective"] for e in document["elites"])
            # the best's roofline fraction with the floor it is of (named, or for an older export, derived)
            best = EvalResult.model_validate(max(document["elites"], key=lambda e: e["objective"])["result"])
            assert (run.best_roofline, run.best_roofline_floor) == (
                best.roofline.fraction if best.roofline else None, floor_name(best.roofline))
            floors.add(run.best_roofline_floor)
    assert floors - {None}, floors
    with pytest.raises(ImportError_, match="imported before"):
        import_path(db, ROOT / "archives" / "h200" / "gelu", spec_files=[])


def write_run_dir(folder: Path, spec_sha256: str) -> Path:
    folder.mkdir()
    (folder / "run.json").write_text(json.dumps({"spec": "gelu", "spec_sha256": spec_sha256, "started_at": 0,
                                                 "config": {"descriptors": "levels", "tie_tolerance": 0.08}}))
    seed = (ROOT / "examples" / "gelu" / "seed.py").read_text()
    candidates = [Candidate(id=i, source=seed + f"\n# {i}\n", operator="seed" if i == 0 else "template",
                            parent_ids=[] if i == 0 else [0]) for i in range(3)]
    (folder / "candidates.jsonl").write_text("".join(c.model_dump_json() + "\n" for c in candidates))
    timing = Timing(median_ms=0.3, iqr_ms=0.003, min_ms=0.3, mean_ms=0.3, repetitions=9, method="cuda_events")
    results = [EvalResult(correct=True, stage=Stage.VERDICT, kernel=timing, eager=timing, speedup_eager=1.0),
               EvalResult(correct=False, stage=Stage.CORRECTNESS, error="wrong_output", message="wrong")]
    evaluations = [Evaluated(candidate_id=i, hardware="h200", result=results[i == 2]) for i in range(3)]
    # the last line torn by a kill, inside a multi-byte character
    (folder / "evaluations.jsonl").write_bytes(
        "".join(e.model_dump_json() + "\n" for e in evaluations).encode() + '{"candidate_id": 9, "é'.encode()[:-1])
    (folder / "failures.jsonl").write_text(OperatorFailure(operator="template", kind="duplicate",
                                                           message="the same").model_dump_json() + "\n")
    return folder


def test_a_run_directory_comes_in_with_every_record(db, tmp_path: Path) -> None:
    gelu = ROOT / "examples" / "gelu" / "spec.py"
    from kernelevo.spec import read_spec

    folder = write_run_dir(tmp_path / "old-run", read_spec(str(gelu)).sha256)
    (line,) = import_path(db, folder, spec_files=[gelu])
    assert "3 candidates, 3 evaluations" in line
    stored = load_run(db, 1)
    assert [c.id for c in stored.candidates] == [0, 1, 2] and len(stored.evaluations) == 3
    assert stored.failures[0].kind == "duplicate"
    with db.session() as session:
        run = get_run(session, 1)
        assert (run.evaluations, run.correct, run.status) == (3, 2, "stopped")
        assert queries.archive(session, 1, "h200")  # the archive rebuilt by replaying the evaluations


def test_a_run_of_an_unknown_spec_says_what_to_pass(db, tmp_path: Path) -> None:
    folder = write_run_dir(tmp_path / "old-run", "0" * 64)
    with pytest.raises(ImportError_, match="pass it with --spec PATH"):
        import_path(db, folder, spec_files=[])
