"""The schema's migrations (SQLite and PostgreSQL): the models match them, and an older database upgrades in place
with what it holds filled in."""

from __future__ import annotations

import importlib.util
import time
from datetime import UTC, datetime
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import MetaData, create_engine, insert, inspect, select

from kernelevo.records.result import EvalResult, Floor, Roofline, Stage, Timing, floor_name
from kernelevo.records.run import RunStatus, StopReason
from kernelevo.storage import evaluations as stored
from kernelevo.storage.database import MIGRATIONS, open_database
from kernelevo.storage.runs import get_run, run_info
from kernelevo.storage.tables import Base, EvaluationRow, RunRow

VERSIONS = MIGRATIONS / "versions"
HEAD = max(p.stem for p in VERSIONS.glob("0*.py"))[:4]  # the newest revision (each file is named by its number)


def migration(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, VERSIONS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def database_at(url: str, revision: str, *, down: bool = False) -> None:
    """The schema at ``revision``, as a kernelevo of that time made it (``down``: migrated down to it)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    engine = create_engine(url)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)
    engine.dispose()


def columns(url: str, table: str) -> set[str]:
    engine = create_engine(url)
    try:
        return {c["name"] for c in inspect(engine).get_columns(table)}
    finally:
        engine.dispose()


# rooflines as results stored them: with the floor named, and before reads and writes were told apart (no floor:
# the copy floor, or the compute floor where FLOPs at the peak take longer)
READ = Roofline(bytes_moved=2_000_000, bytes_read=1_900_000, bytes_written=100_000, flops=0, bandwidth_gbs=3000.0,
                read_bandwidth_gbs=3200.0, peak_tflops=989.0, floor_ms=0.0006, fraction=0.98, floor=Floor.READ)
OLD_COPY = Roofline(bytes_moved=2_000_000, flops=1000, bandwidth_gbs=3000.0, peak_tflops=989.0, floor_ms=0.00067,
                    fraction=0.5)
OLD_COMPUTE = Roofline(bytes_moved=2_000_000, flops=10**12, bandwidth_gbs=3000.0, peak_tflops=989.0, floor_ms=1.01,
                       fraction=0.75)
NO_BANDWIDTH = Roofline(bytes_moved=2_000_000, flops=0, bandwidth_gbs=None, peak_tflops=None, floor_ms=None,
                        fraction=None)


def result(roofline: Roofline | None) -> dict[str, Any]:
    timing = Timing(median_ms=0.1, iqr_ms=0.001, min_ms=0.1, mean_ms=0.1, repetitions=50, method="cuda_events")
    return EvalResult(correct=roofline is not None, stage=Stage.VERDICT, kernel=timing, speedup_eager=1.5,
                      roofline=roofline).model_dump(mode="json")


def test_the_copied_floor_rule_is_the_one_results_read() -> None:
    """0002 fills in floors with its own copy of ``Roofline.floor_kind``: the same floor for every kind of record."""
    floor_of = migration("0002_roofline_floor").floor_of
    for roofline in (READ, OLD_COPY, OLD_COMPUTE, NO_BANDWIDTH, None):
        dumped = roofline.model_dump(mode="json") if roofline else None
        assert floor_of(dumped) == floor_name(roofline)
    assert [floor_name(r) for r in (READ, OLD_COPY, OLD_COMPUTE, NO_BANDWIDTH)] == ["read", "copy", "compute", None]


def test_the_models_match_the_migrations(any_db) -> None:
    """A migrated database has every table and column the models name, as they name them (a column added to a
    model without a migration fails here)."""
    with any_db.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert differences == []


def test_a_database_at_0001_upgrades_in_place_and_fills_in_the_floors(fresh_db_url: str) -> None:
    database_at(fresh_db_url, "0001")
    engine = create_engine(fresh_db_url)
    old = MetaData()
    old.reflect(engine)
    assert "roofline_floor" not in old.tables["evaluations"].c
    now = datetime.now(UTC)
    kinds = [READ, OLD_COPY, OLD_COMPUTE, NO_BANDWIDTH, None]
    # more evaluations than the migration reads at once, so the batches meet
    count = 2 * migration("0002_roofline_floor").BATCH + 3
    with engine.begin() as connection:
        spec_id = connection.execute(insert(old.tables["specs"]).values(
            name="gelu", sha256="0" * 64, source="", settings={}, seeds=[], created_at=now)).inserted_primary_key[0]
        run = {"spec_id": spec_id, "status": "finished", "config": {}, "owner": "test", "created_at": now,
               "stop_requested": False, "interpreted": False, "evaluations": count, "correct": count, "tokens": 0,
               "dollars": 0.0, "elapsed_s": 1.0}
        # the best fraction is the read-floor one's; a fraction no evaluation holds; a CPU run's none
        run_ids = [connection.execute(insert(old.tables["runs"]).values(**run, best_roofline=best))
                   .inserted_primary_key[0] for best in (READ.fraction, 0.33, None)]
        candidate_id = connection.execute(insert(old.tables["candidates"]).values(
            run_id=run_ids[0], number=0, source="# k", source_hash="0" * 32, operator="seed", parent_numbers=[],
            island=0, note="", usage={}, created_at=time.time())).inserted_primary_key[0]
        results = {id(r): result(r) for r in kinds}
        connection.execute(insert(old.tables["evaluations"]), [
            {"run_id": run_ids[0], "candidate_id": candidate_id, "candidate_number": 0, "hardware": "h100",
             "correct": roofline is not None, "stage": "verdict", "message": "", "island": 0, "interpreted": False,
             "objective": 0.4 if roofline is not None else None, "finished_at": time.time() + i,
             "roofline": roofline.fraction if roofline else None, "result": results[id(roofline)]}
            for i, roofline in enumerate(kinds[i % len(kinds)] for i in range(count))])
    engine.dispose()

    db = open_database(fresh_db_url)  # at 0001: upgraded to the head
    try:
        with db.engine.connect() as connection:
            assert MigrationContext.configure(connection).get_current_heads() == (HEAD,)
        columns = {c["name"]: c for c in inspect(db.engine).get_columns("evaluations")}
        assert columns["roofline_floor"]["nullable"] and columns["roofline_floor"]["type"].length == 10
        with db.session() as session:
            floors = list(session.scalars(select(EvaluationRow.roofline_floor).order_by(EvaluationRow.id)))
            assert floors == [floor_name(kinds[i % len(kinds)]) for i in range(count)]
            assert floors[:5] == ["read", "copy", "compute", None, None]
            assert [session.get(RunRow, r).best_roofline_floor for r in run_ids] == ["read", None, None]
            # and as the lists read them
            assert run_info(session, get_run(session, run_ids[0])).best_roofline_floor == "read"
            items, _ = stored.evaluations(session, run_ids[0], limit=5)
            assert [(i.roofline, i.roofline_floor) for i in items] == [
                (0.98, "read"), (0.5, "copy"), (0.75, "compute"), (None, None), (None, None)]
    finally:
        db.dispose()


def test_0002_downgrades_and_upgrades_again(fresh_db_url: str) -> None:
    open_database(fresh_db_url).dispose()
    database_at(fresh_db_url, "0001", down=True)
    assert "roofline_floor" not in columns(fresh_db_url, "evaluations")
    assert "best_roofline_floor" not in columns(fresh_db_url, "runs")
    open_database(fresh_db_url).dispose()  # and back to the head
    assert "best_roofline_floor" in columns(fresh_db_url, "runs")


# sentences runs were stopped with, the status they were stored with, and the kind 0003 gives them
OLD_STOPS = [
    ("evaluation budget (200) reached", "finished", "budget_evaluations"),
    ("time budget (0.5 min) reached", "finished", "budget_time"),
    ("token budget (100000) reached", "finished", "budget_tokens"),
    ("dollar budget ($2.5) reached", "finished", "budget_dollars"),
    (None, "finished", None),  # (a sentence is needed)
    ("the LLM failed: openai/gpt-4o-mini: AuthenticationError (3 tries)", "failed", "llm_failed"),
    ("stopped on request (the API)", "stopped", "stopped_by_user"),
    ("stopped by Ctrl-C", "stopped", "ctrl_c"),
    ("stopped (SIGTERM)", "stopped", "sigterm"),
    ("stopped before it started", "stopped", "stopped_before_start"),
    ("the run's driver ended before finishing it (exit status 1: Traceback ...)", "failed", "driver_ended"),
    ("RunSetupError: no GPU for target cuda", "failed", "driver_failed"),
    ("LeaseLost", "failed", "driver_failed"),
    ("RunSetupError: no GPU for target cuda", "stopped", None),  # an exception's name on a run that did not fail
    ("budget reached", "finished", None),  # no kernelevo sentence: not guessed
]


def test_0003_classifies_the_sentences_the_code_writes() -> None:
    """0003's copied sentences: those the scheduler, driver and storage write today get their kind."""
    from kernelevo.driver import INTERRUPTED
    from kernelevo.search.scheduler import LLM_FAILED
    from kernelevo.search.stops import EXHAUSTED

    kind_of = migration("0003_stop_kind").kind_of
    assert {kind for _, kind in migration("0003_stop_kind").KINDS} <= {k.value for k in StopReason}
    for sentence, kind in [(EXHAUSTED, StopReason.EXHAUSTED), (f"{LLM_FAILED}: no model", StopReason.LLM_FAILED),
                           (INTERRUPTED, StopReason.INTERRUPTED),
                           ("the operators made nothing new in 200 tries in a row (...)", StopReason.IDLE_OPERATORS),
                           ("no correct kernel to vary: every seed was rejected (see the evaluations)",
                            StopReason.NO_CORRECT_SEED),
                           ("another driver took over this run's lease", StopReason.LEASE_LOST),
                           *((s, StopReason(k)) for s, _, k in OLD_STOPS if k is not None)]:
        assert kind_of(kind.status.value, sentence) == kind.value, sentence


def test_a_database_at_0002_upgrades_and_classifies_the_stops(fresh_db_url: str) -> None:
    database_at(fresh_db_url, "0002")
    engine = create_engine(fresh_db_url)
    old = MetaData()
    old.reflect(engine)
    assert "stop_kind" not in old.tables["runs"].c
    now = datetime.now(UTC)
    with engine.begin() as connection:
        spec_id = connection.execute(insert(old.tables["specs"]).values(
            name="gelu", sha256="0" * 64, source="", settings={}, seeds=[], created_at=now)).inserted_primary_key[0]
        run = {"spec_id": spec_id, "config": {}, "owner": "test", "created_at": now, "stop_requested": False,
               "interpreted": False, "evaluations": 0, "correct": 0, "tokens": 0, "dollars": 0.0, "elapsed_s": 1.0}
        run_ids = [connection.execute(insert(old.tables["runs"]).values(**run, status=status, stop_reason=sentence))
                   .inserted_primary_key[0] for sentence, status, _ in OLD_STOPS]
    engine.dispose()

    db = open_database(fresh_db_url)  # at 0002: upgraded to the head
    try:
        columns = {c["name"]: c for c in inspect(db.engine).get_columns("runs")}
        assert columns["stop_kind"]["nullable"]
        with db.session() as session:
            assert [session.get(RunRow, r).stop_kind for r in run_ids] == [k for _, _, k in OLD_STOPS]
            info = run_info(session, get_run(session, run_ids[1]))
            assert (info.status, info.stop_kind) == (RunStatus.FINISHED, StopReason.BUDGET_TIME)
    finally:
        db.dispose()


def test_0003_downgrades(fresh_db_url: str) -> None:
    open_database(fresh_db_url).dispose()
    database_at(fresh_db_url, "0002", down=True)
    assert "stop_kind" not in columns(fresh_db_url, "runs")


def test_0004_downgrades_and_upgrades_again(fresh_db_url: str) -> None:
    open_database(fresh_db_url).dispose()
    assert "after_evaluations" in columns(fresh_db_url, "migrations")
    database_at(fresh_db_url, "0003", down=True)
    engine = create_engine(fresh_db_url)
    try:
        assert "migrations" not in inspect(engine).get_table_names()
    finally:
        engine.dispose()
    open_database(fresh_db_url).dispose()
    assert "after_evaluations" in columns(fresh_db_url, "migrations")


@pytest.mark.parametrize("name", sorted(p.stem for p in VERSIONS.glob("0*.py")))
def test_each_migration_follows_the_one_before(name: str) -> None:
    """One line of revisions: each file's ``down_revision`` is the one numbered before it."""
    module = migration(name)
    number = int(module.revision)
    assert name.startswith(f"{number:04d}_")
    assert module.down_revision == (None if number == 1 else f"{number - 1:04d}")
