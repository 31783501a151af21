"""Driving a run where it meets the lease (SQLite and PostgreSQL): a resume that is refused -- another driver
holds the run, or its settings do not validate -- changes nothing that is stored."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from kernelevo.driver import new_run, run_search
from kernelevo.records.run import RunStatus, StopReason
from kernelevo.records.run_config import Budget, RunConfig
from kernelevo.spec import read_spec
from kernelevo.storage.runs import RunBusy, acquire_lease, end_run, get_run, lease_owner_name, start_run

COLUMNS = ("config", "status", "stop_reason", "stop_requested", "lease_owner", "lease_expires_at", "started_at",
           "finished_at", "driver", "out_dir", "evaluations")


def stored(db, run_id: int) -> dict[str, Any]:
    with db.session() as session:
        row = get_run(session, run_id)
        return {column: getattr(row, column) for column in COLUMNS}


def driven_run(db, examples_dir: Path, *, evaluations: int) -> tuple[int, str]:
    """A run being driven to ``evaluations`` by a driver of this process (alive: its lease holds)."""
    config = RunConfig(budget=Budget(evaluations=evaluations), ray=False)
    run_id = new_run(db, read_spec(str(examples_dir / "gelu" / "spec.py")), config, owner="test")
    owner = lease_owner_name()
    with db.session() as session:
        start_run(acquire_lease(session, run_id, owner), driver="pid 1", out_dir="out")
    return run_id, owner


def test_a_resume_refused_while_another_driver_holds_the_run_changes_nothing(any_db, examples_dir: Path) -> None:
    """``--resume 1 --budget evals=41`` on a run being driven to 44: refused, and the budget stays 44 (it
    was stored before the refusal)."""
    run_id, _ = driven_run(any_db, examples_dir, evaluations=44)
    before = stored(any_db, run_id)
    with pytest.raises(RunBusy, match=f"run {run_id} is being driven by process"):
        asyncio.run(run_search(any_db, run_id, config_updates={"budget": {"evaluations": 41}}))
    after = stored(any_db, run_id)
    assert after == before
    assert after["config"]["budget"]["evaluations"] == 44 and after["status"] == RunStatus.RUNNING.value


def test_a_resume_whose_settings_do_not_validate_changes_nothing(any_db, examples_dir: Path) -> None:
    """An ended run resumed with a budget that cannot be: refused before the lease is taken or the run
    marked running."""
    run_id, owner = driven_run(any_db, examples_dir, evaluations=44)
    with any_db.session() as session:
        end_run(session, run_id, owner, StopReason.BUDGET_EVALUATIONS, "budget reached")
    before = stored(any_db, run_id)
    with pytest.raises(ValidationError):
        asyncio.run(run_search(any_db, run_id, config_updates={"budget": {"evaluations": 0}}))
    after = stored(any_db, run_id)
    assert after == before
    assert (after["status"], after["lease_owner"]) == (RunStatus.FINISHED.value, None)
