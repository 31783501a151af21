"""``kernelevo import``: runs made before the database, into it, so nothing made so far is stranded.

Two shapes are read:

- a run directory of the file store (``run.json``, ``candidates.jsonl``,
  ``evaluations.jsonl``, ``failures.jsonl``, ``evolutions.jsonl``, ``prompts.json``): every
  record is imported, and the archive is rebuilt by replaying the evaluations;
- exported archives (``<hardware>/<spec>/archive.json``, as under ``archives/``): each
  becomes a finished run holding its elites, their sources, results and lineage.

Neither holds the spec's source, only its hash: the spec is found among the database's
specs, the ``--spec`` files given, and ``examples/*/spec.py``, ``benchmarks/suite/*.py`` and
``benchmarks/heldout/*.py`` (the no-seed suite and the held-out problems, whose searches are exported too)
under the current directory.
An import is refused when the same run was imported before (same source and spec).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from sqlalchemy import select

from kernelevo.archive.descriptors import descriptor_set
from kernelevo.records.candidate import Candidate, Evaluated, OperatorFailure, OperatorName, PromptEvolution
from kernelevo.records.elite import AddStatus
from kernelevo.records.result import EvalResult, floor_name
from kernelevo.records.run import RunStatus
from kernelevo.search.state import SearchState
from kernelevo.spec.spec import Spec, read_spec
from kernelevo.storage.database import Database, utcnow
from kernelevo.storage.recorder import RunRecorder
from kernelevo.storage.runs import create_run, save_spec, spec_of
from kernelevo.storage.tables import RunRow, SpecRow
from kernelevo.variation.llm.metaprompt import PromptArchive


class ImportError_(ValueError):
    """The path holds nothing importable, or its spec cannot be found."""


def import_path(db: Database, path: Path, *, spec_files: list[Path]) -> list[str]:
    """Import what ``path`` holds; one line per run imported."""
    if (path / "run.json").is_file():
        return [_import_run_dir(db, path, spec_files)]
    documents = sorted(path.rglob("archive.json")) if path.is_dir() else []
    if not documents:
        raise ImportError_(f"{path} holds no run directory (run.json) and no exported archive (archive.json)")
    return [_import_archive(db, document, spec_files) for document in documents]


def _find_spec(db: Database, sha256: str, name: str, spec_files: list[Path]) -> Spec:
    with db.session() as session:
        row = session.scalar(select(SpecRow).where(SpecRow.sha256 == sha256))
        if row is not None:
            return spec_of(row)
    candidates = [*spec_files, *sorted(Path("examples").glob("*/spec.py")),
                  *sorted(Path("benchmarks/suite").glob("*.py")), *sorted(Path("benchmarks/heldout").glob("*.py"))]
    for file in candidates:
        spec = read_spec(str(file))
        if spec.sha256 == sha256:
            return spec
    raise ImportError_(f"the spec {name!r} (sha256 {sha256[:12]}) is neither in the database nor among "
                       f"{len(candidates)} spec file(s) looked at: pass it with --spec PATH")


def _already(db: Database, source: str) -> int | None:
    with db.session() as session:
        for row in session.scalars(select(RunRow).where(RunRow.owner == "import")):
            if row.config.get("imported_from") == source:
                return row.id
    return None


def _read_jsonl(path: Path) -> list[str]:
    if not path.exists():
        return []
    # a line torn by a kill, even inside a multi-byte character, is dropped, not a crash
    return [line for line in path.read_bytes().decode("utf-8", errors="replace").splitlines() if line.strip()]


def _records(path: Path, model: Any) -> list[Any]:
    found = []
    for line in _read_jsonl(path):
        try:
            found.append(model.model_validate_json(line))
        except (ValidationError, ValueError):
            continue
    return found


def _import_run_dir(db: Database, directory: Path, spec_files: list[Path]) -> str:
    meta = json.loads((directory / "run.json").read_text())
    source = str(directory.resolve())
    if (existing := _already(db, source)) is not None:
        raise ImportError_(f"{directory} was imported before, as run {existing}")
    spec = _find_spec(db, meta["spec_sha256"], meta["spec"], spec_files)
    config = {**meta.get("config", {}), "imported_from": source}
    with db.session() as session:
        spec_row = save_spec(session, spec, seeds=[])
        run = create_run(session, spec_id=spec_row.id, config=config, owner="import", status=RunStatus.STOPPED,
                         out_dir=str(directory))
        run_id = run.id
    recorder = RunRecorder(db, run_id)
    candidates = _records(directory / "candidates.jsonl", Candidate)
    for candidate in candidates:
        recorder.add_candidate(candidate)
    state = SearchState(descriptors=descriptor_set(config.get("descriptors", "levels")),
                        tie_tolerance=config.get("tie_tolerance", 0.08), operators=[OperatorName.TEMPLATE])
    for candidate in candidates:
        state.add_candidate(candidate)
    for stored in _records(directory / "evaluations.jsonl", Evaluated):
        candidate = state.candidates.get(stored.candidate_id)
        if candidate is not None:
            recorder.add_evaluations([state.tell(candidate, stored.hardware, stored.result, measures=stored.measures)])
    for failure in _records(directory / "failures.jsonl", OperatorFailure):
        recorder.add_failure(failure)
    for evolution in _records(directory / "evolutions.jsonl", PromptEvolution):
        recorder.add_evolution(evolution)
    if (directory / "prompts.json").is_file():
        recorder.save_prompts(PromptArchive.model_validate_json((directory / "prompts.json").read_text()))
    _summarize(db, run_id, state)
    return f"run {run_id}: {directory} ({len(candidates)} candidates, {state.evaluated_count()} evaluations)"


def _import_archive(db: Database, document_path: Path, spec_files: list[Path]) -> str:
    document = json.loads(document_path.read_text())
    source = str(document_path.resolve())
    if (existing := _already(db, source)) is not None:
        raise ImportError_(f"{document_path} was imported before, as run {existing}")
    spec = _find_spec(db, document["spec_sha256"], document["spec"], spec_files)
    names = ",".join(d["name"] for d in document["descriptors"])
    config = {"descriptors": names, "imported_from": source, "evaluations_in_original_run": document["evaluations"]}
    with db.session() as session:
        spec_row = save_spec(session, spec, seeds=[])
        run = create_run(session, spec_id=spec_row.id, config=config, owner="import", status=RunStatus.FINISHED,
                         out_dir=str(document_path.parent))
        run_id = run.id
    recorder = RunRecorder(db, run_id)
    hardware = document["hardware"]
    elites = sorted(document["elites"], key=lambda e: e["candidate_id"])
    for elite in elites:
        parents = [int(step.split()[0].lstrip("#")) for step in elite["lineage"][1:2]]
        recorder.add_candidate(Candidate(id=elite["candidate_id"], source=elite["source"], operator=elite["operator"],
                                         parent_ids=parents, island=elite["island"], note=elite["note"]))
    for elite in elites:
        result = EvalResult.model_validate(elite["result"])
        recorder.add_evaluations([Evaluated(
            candidate_id=elite["candidate_id"], hardware=hardware, result=result, objective=elite["objective"],
            measures=list(elite["descriptors"].values()), island=elite["island"], cell=elite["cell"],
            archive_status=AddStatus.NEW_CELL)])
    with db.session() as session:
        run_row = session.get(RunRow, run_id)
        assert run_row is not None
        run_row.hardware, run_row.evaluations = hardware, document["evaluations"]
        run_row.correct = len(elites)
        best = max(elites, key=lambda e: e["objective"], default=None)
        if best is not None:
            top = EvalResult.model_validate(best["result"])
            run_row.interpreted = top.interpreted
            run_row.best_speedup_eager, run_row.best_speedup_compile = top.speedup_eager, top.speedup_compile
            run_row.best_roofline = top.roofline.fraction if top.roofline else None
            run_row.best_roofline_floor = floor_name(top.roofline)
        run_row.finished_at = utcnow()
    return f"run {run_id}: {document_path} ({len(elites)} elites on {hardware})"


def _summarize(db: Database, run_id: int, state: SearchState) -> None:
    """The run's summary columns and elites, from the replayed state."""
    recorder = RunRecorder(db, run_id)
    for (island, hardware), archive in state.archives.items():
        for elite in archive.elites():
            recorder.save_elite(hardware, island, elite)
    with db.session() as session:
        row = session.get(RunRow, run_id)
        assert row is not None
        row.evaluations, row.correct = state.evaluated_count(), state.correct_count()
        row.tokens, row.dollars = state.usage.tokens, state.usage.cost_usd
        for hardware in state.hardware_types():
            best = state.best(hardware)
            result = state.result_of(best[1].id, hardware) if best else None
            if result is not None:
                row.hardware, row.interpreted = hardware, result.interpreted
                if not result.interpreted:
                    row.best_speedup_eager, row.best_speedup_compile = result.speedup_eager, result.speedup_compile
                    row.best_roofline = result.roofline.fraction if result.roofline else None
                    row.best_roofline_floor = floor_name(result.roofline)
        row.finished_at = utcnow()
