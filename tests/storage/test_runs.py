"""Runs in the database: statuses, the queue, and the lease that keeps a second driver out."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from kernelevo.records.run import RunStatus
from kernelevo.spec import read_spec
from kernelevo.storage.database import utcnow
from kernelevo.storage.runs import (
    RunBusy,
    acquire_lease,
    create_run,
    get_run,
    lease_owner_name,
    list_runs,
    release_lease,
    renew_lease,
    run_info,
    save_spec,
    seeds_of,
    spec_of,
)


def spec_id(db, examples_dir: Path) -> int:
    with db.session() as session:
        return save_spec(session, read_spec(str(examples_dir / "gelu" / "spec.py"))).id


def test_a_spec_is_stored_once_with_its_seeds(any_db, examples_dir: Path) -> None:
    spec = read_spec(str(examples_dir / "gelu" / "spec.py"))
    with any_db.session() as session:
        first, again = save_spec(session, spec), save_spec(session, spec)
        assert first.id == again.id
        assert spec_of(first).sha256 == spec.sha256 and spec_of(first).settings == spec.settings
        assert [name for name, _ in seeds_of(first)] == ["seed", "seed_persistent"]


def test_the_queue_says_who_is_next(any_db, examples_dir: Path) -> None:
    sid = spec_id(any_db, examples_dir)
    with any_db.session() as session:
        ids = [create_run(session, spec_id=sid, config={}, owner="a").id for _ in range(3)]
        get_run(session, ids[0]).status = RunStatus.FINISHED.value
    with any_db.session() as session:
        infos = [run_info(session, get_run(session, i)) for i in ids]
    assert [i.queue_position for i in infos] == [None, 0, 1] and infos[0].status == RunStatus.FINISHED


def test_a_second_driver_is_refused_while_the_first_lives(any_db, examples_dir: Path) -> None:
    sid = spec_id(any_db, examples_dir)
    first, second = lease_owner_name(), lease_owner_name()
    with any_db.session() as session:
        run_id = create_run(session, spec_id=sid, config={}, owner="a").id
        acquire_lease(session, run_id, first)
    with any_db.session() as session, pytest.raises(RunBusy, match=f"run {run_id} is being driven by process"):
        acquire_lease(session, run_id, second)
    with any_db.session() as session:
        assert renew_lease(session, run_id, first) == (True, False)
        get_run(session, run_id).stop_requested = True
    with any_db.session() as session:
        assert renew_lease(session, run_id, first) == (True, True)  # the API asked it to stop
        release_lease(session, run_id, first)
    with any_db.session() as session:
        acquire_lease(session, run_id, second)  # gone: the next driver takes it
        assert renew_lease(session, run_id, first) == (False, True)  # and the first learns it lost it


def test_a_dead_driver_or_an_expired_lease_lets_the_next_one_in(any_db, examples_dir: Path) -> None:
    sid = spec_id(any_db, examples_dir)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    with any_db.session() as session:
        run_id = create_run(session, spec_id=sid, config={}, owner="a", status=RunStatus.RUNNING).id
        row = get_run(session, run_id)
        host = lease_owner_name().split(":")[0]
        row.lease_owner, row.lease_expires_at = f"{host}:{dead.stdout.strip()}:x", utcnow() + timedelta(seconds=30)
    with any_db.session() as session:
        assert run_info(session, get_run(session, run_id)).status == RunStatus.INTERRUPTED  # its process is gone
        acquire_lease(session, run_id, lease_owner_name())
    with any_db.session() as session:  # on another host, only the clock tells
        row = get_run(session, run_id)
        row.lease_owner, row.lease_expires_at = "elsewhere:1:x", utcnow() - timedelta(seconds=1)
    with any_db.session() as session:
        acquire_lease(session, run_id, lease_owner_name())
        assert get_run(session, run_id).lease_owner.startswith(host)
    assert os.getpid()  # this process holds nothing


def test_one_listing_tells_a_run_whose_driver_is_gone_as_interrupted_everywhere(any_db, examples_dir: Path) -> None:
    sid = spec_id(any_db, examples_dir)
    with any_db.session() as session:
        ids = [create_run(session, spec_id=sid, config={}, owner="test").id for _ in range(4)]
        for run_id in ids[1:]:
            acquire_lease(session, run_id, lease_owner_name())
            get_run(session, run_id).status = RunStatus.RUNNING.value
        get_run(session, ids[1]).lease_expires_at = utcnow() - timedelta(seconds=1)  # its driver went quiet
        get_run(session, ids[2]).status = RunStatus.INTERRUPTED.value  # Ctrl-C twice
    with any_db.session() as session:
        def listed(status: str | None, **page: int) -> tuple[list[int], int]:
            rows, total = list_runs(session, status=status, **page)
            return [r.id for r in rows], total

        assert listed("running") == ([ids[3]], 1)
        assert listed("interrupted") == ([ids[2], ids[1]], 2)
        assert listed("queued") == ([ids[0]], 1)
        assert listed(None) == (ids[::-1], 4)
        assert listed(None, limit=2, offset=1) == (ids[2:0:-1], 4)
        assert listed("interrupted", limit=1, offset=1) == ([ids[1]], 2)
        assert {run_info(session, r).status.value for r in list_runs(session, status="interrupted")[0]} \
            == {"interrupted"}
