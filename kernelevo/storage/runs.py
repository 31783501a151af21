"""Specs and runs in the database: creating them, finding them, and the lease that lets one driver write a run.

Functions take the session as a keyword argument and leave committing to the caller
(``with db.session() as s:``), so several of them make one transaction.
"""

from __future__ import annotations

import os
import socket
import uuid
from datetime import timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, func, select, update
from sqlalchemy.orm import Session

from kernelevo.records.run import RunInfo, RunStatus, StopReason
from kernelevo.spec.settings import parse_settings
from kernelevo.spec.spec import Spec
from kernelevo.storage.database import as_utc, utcnow
from kernelevo.storage.tables import RunRow, SpecRow

LEASE_S = 30.0  # a driver renews its lease every few seconds; one not renewed for this long is gone


class RunNotFound(LookupError):
    """No run (or spec) with that id."""


class RunBusy(RuntimeError):
    """Another driver holds the run's lease."""


class LeaseLost(RunBusy):
    """This driver's lease went to another driver (it was paused, or cut off, past its lease): it writes nothing
    more, and what it held back is dropped, as the driver now in charge never saw it."""


# -- specs -------------------------------------------------------------------------------------------
def save_spec(session: Session, spec: Spec, *, seeds: list[tuple[str, str]] | None = None,
              report: dict[str, Any] | None = None) -> SpecRow:
    """The spec's row, added if its source is new (a spec is identified by its source's hash).

    ``seeds`` (name, source) default to the spec's own, read from the files next to it.
    """
    row = session.scalar(select(SpecRow).where(SpecRow.sha256 == spec.sha256))
    if row is None:
        found = spec.seed_sources() if seeds is None else seeds
        row = SpecRow(name=spec.name, sha256=spec.sha256, source=spec.source,
                      settings=spec.settings.model_dump(mode="json"), seeds=[list(s) for s in found], report=report,
                      created_at=utcnow())
        session.add(row)
        session.flush()
    elif report is not None and row.report is None:
        row.report = report
    return row


def spec_of(row: SpecRow) -> Spec:
    """The :class:`Spec` stored in ``row`` (read from its source, never run)."""
    return Spec(name=row.name, source=row.source, settings=parse_settings(row.source, filename=f"<spec {row.name}>"))


def seeds_of(row: SpecRow) -> list[tuple[str, str]]:
    return [(name, source) for name, source in row.seeds]


def get_spec(session: Session, spec_id: int) -> SpecRow:
    row = session.get(SpecRow, spec_id)
    if row is None:
        raise RunNotFound(f"no spec {spec_id}")
    return row


# -- runs ----------------------------------------------------------------------------------------------
def create_run(session: Session, *, spec_id: int, config: dict[str, Any], owner: str,
               status: RunStatus = RunStatus.QUEUED, out_dir: str | None = None) -> RunRow:
    row = RunRow(spec_id=spec_id, status=status.value, config=config, owner=owner, created_at=utcnow(),
                 out_dir=out_dir)
    session.add(row)
    session.flush()
    return row


def get_run(session: Session, run_id: int, *, for_update: bool = False) -> RunRow:
    """The run's row; ``for_update``: locked until the transaction ends, and read as it is now (not as this
    session last saw it), so that a read-then-write of it (a lease taken, renewed or let go) is one step."""
    query = select(RunRow).where(RunRow.id == run_id)
    if for_update:
        _lock_run(session, run_id)
        query = query.with_for_update().execution_options(populate_existing=True)
    row = session.scalar(query)
    if row is None:
        raise RunNotFound(f"no run {run_id} (kernelevo runs lists them)")
    return row


def _lock_run(session: Session, run_id: int) -> None:
    """On SQLite, take the database's write lock for the rest of the transaction. SQLite ignores FOR UPDATE,
    and pysqlite begins no transaction before a write: a SELECT is answered on its own, so another driver
    could take the lease between that read and this transaction's writes. An UPDATE that changes nothing
    begins the transaction and holds the write lock (another writer waits, up to the busy timeout).
    PostgreSQL's FOR UPDATE locks the row itself."""
    if session.get_bind().dialect.name == "sqlite":
        session.execute(update(RunRow).where(RunRow.id == run_id).values(lease_owner=RunRow.lease_owner),
                        execution_options={"synchronize_session": False})


def status_of(row: RunRow) -> RunStatus:
    """The stored status, except a running run whose driver stopped renewing its lease: interrupted."""
    status = RunStatus(row.status)
    if status == RunStatus.RUNNING and not _lease_held(row):
        return RunStatus.INTERRUPTED
    return status


def run_info(session: Session, row: RunRow) -> RunInfo:
    spec = session.get(SpecRow, row.spec_id)
    status = status_of(row)
    position = None
    if status == RunStatus.QUEUED:
        position = session.scalar(select(func.count()).select_from(RunRow).where(
            RunRow.status == RunStatus.QUEUED.value, RunRow.id < row.id))
    return RunInfo(
        id=row.id, spec_id=row.spec_id, spec_name=spec.name if spec else "?", status=status, config=row.config,
        owner=row.owner, created_at=as_utc(row.created_at), started_at=as_utc(row.started_at),
        finished_at=as_utc(row.finished_at), stop_reason=row.stop_reason,
        stop_kind=StopReason(row.stop_kind) if row.stop_kind else None, stop_requested=row.stop_requested,
        driver=row.driver, out_dir=row.out_dir, queue_position=position, hardware=row.hardware,
        interpreted=row.interpreted, evaluations=row.evaluations, correct=row.correct,
        best_speedup_eager=row.best_speedup_eager, best_speedup_compile=row.best_speedup_compile,
        best_roofline=row.best_roofline, best_roofline_floor=row.best_roofline_floor, tokens=row.tokens,
        dollars=row.dollars, elapsed_s=row.elapsed_s,
    )


def list_runs(session: Session, *, status: RunStatus | str | None = None, spec_id: int | None = None,
              stop_kind: StopReason | str | None = None, limit: int = 100,
              offset: int = 0) -> tuple[list[RunRow], int]:
    """A page of the runs, newest first, and how many there are in all; ``status`` as :func:`status_of` tells
    it (a run stored as running whose driver is gone is interrupted, as is one a second Ctrl-C stopped), and
    ``stop_kind`` the kind of its last stop. The one listing of runs: the CLI's ``runs`` and the API's
    ``GET /runs`` both read it."""
    status = RunStatus(status) if status is not None else None
    query = select(RunRow).order_by(RunRow.id.desc())
    if spec_id is not None:
        query = query.where(RunRow.spec_id == spec_id)
    if stop_kind is not None:
        query = query.where(RunRow.stop_kind == StopReason(stop_kind).value)
    leased = (RunStatus.RUNNING.value, RunStatus.INTERRUPTED.value)
    if status is not None and status.value not in leased:
        query = query.where(RunRow.status == status.value)
    elif status is not None:  # the lease tells these two apart: filtered here
        query = query.where(RunRow.status.in_(leased))
        rows = [r for r in session.scalars(query) if status_of(r) == status]
        return rows[offset:offset + limit], len(rows)
    total = session.scalar(select(func.count()).select_from(query.order_by(None).subquery())) or 0
    return list(session.scalars(query.limit(limit).offset(offset))), total


# -- a run's lifecycle: every change of its status --------------------------------------------------------
def start_run(row: RunRow, *, driver: str, out_dir: str) -> None:
    """Its driver took the lease: running, nothing of its last end left."""
    row.status, row.stop_requested, row.stop_reason, row.finished_at = RunStatus.RUNNING.value, False, None, None
    row.stop_kind = None
    row.started_at = row.started_at or utcnow()
    row.driver, row.out_dir = driver, out_dir


def end_run(session: Session, run_id: int, owner: str, kind: StopReason, reason: str) -> None:
    """Its driver ends it, for ``kind`` of stop (which leaves it finished, stopped, failed or interrupted),
    ``reason`` saying why in a sentence, and lets the lease go; a driver that lost the lease changes nothing."""
    row = get_run(session, run_id, for_update=True)
    if row.lease_owner == owner:
        row.status, row.finished_at = kind.status.value, utcnow()
        row.stop_reason, row.stop_kind = reason, kind.value
        row.lease_owner, row.lease_expires_at = None, None


def stop_run(row: RunRow) -> None:
    """Stop on request: a queued run at once, a running one through its driver (which finishes the evaluations
    under way); one that ended stays as it is."""
    status = status_of(row)
    if status == RunStatus.QUEUED:
        row.status, row.stop_reason = RunStatus.STOPPED.value, "stopped before it started"
        row.stop_kind = StopReason.STOPPED_BEFORE_START.value
    elif status == RunStatus.RUNNING:
        row.stop_requested = True


def queue_again(row: RunRow) -> None:
    """A run that ended, queued to be resumed. A lease left on it (a driver paused past its lease shows the run
    as interrupted) is let go: that driver, continued, is fenced out, and the run waits for the driver that
    resumes it."""
    row.status, row.stop_requested, row.stop_reason, row.stop_kind = RunStatus.QUEUED.value, False, None, None
    row.lease_owner, row.lease_expires_at = None, None


def fail_unended_run(row: RunRow, reason: str) -> bool:
    """A run whose driver's process ended without ending it (a crash before it took the lease, say): failed
    (:attr:`StopReason.DRIVER_ENDED`), with ``reason``; False where it is running under a live driver or ended
    already."""
    if RunStatus(row.status) not in (RunStatus.QUEUED, RunStatus.RUNNING) or status_of(row) == RunStatus.RUNNING:
        return False
    row.status, row.finished_at, row.stop_reason = RunStatus.FAILED.value, utcnow(), reason
    row.stop_kind = StopReason.DRIVER_ENDED.value
    return True


# -- the lease -----------------------------------------------------------------------------------------
def lease_owner_name() -> str:
    """This driver: host, process and a random tag (a restarted process on the same pid is another driver)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def _lease_held(row: RunRow) -> bool:
    """Someone holds the lease: not expired, and (on this host) its process is alive."""
    expires = as_utc(row.lease_expires_at)
    if row.lease_owner is None or expires is None or expires <= utcnow():
        return False
    host, _, rest = row.lease_owner.partition(":")
    pid = rest.partition(":")[0]
    if host == socket.gethostname() and pid.isdigit():
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return False  # it died without letting go (a SIGKILL): gone at once, not in LEASE_S
        except PermissionError:
            pass
    return True


def check_not_driven(row: RunRow, owner: str | None = None) -> None:
    """:class:`RunBusy` while a driver other than ``owner`` holds the run's lease (a resume checks this before
    anything else, and again as it takes the lease)."""
    if row.lease_owner in (None, owner) or not _lease_held(row):
        return
    expires = as_utc(row.lease_expires_at)
    left = (expires - utcnow()).total_seconds() if expires else 0
    host, _, rest = (row.lease_owner or "").partition(":")
    raise RunBusy(f"run {row.id} is being driven by process {rest.partition(':')[0]} on {host} (its lease runs "
                  f"{left:.0f} s more unless renewed): stop it first (Ctrl-C, or the API's stop), or wait until "
                  "it is gone")


def acquire_lease(session: Session, run_id: int, owner: str) -> RunRow:
    """Take the run for this driver; :class:`RunBusy` while another driver is alive."""
    row = get_run(session, run_id, for_update=True)
    check_not_driven(row, owner)
    row.lease_owner = owner
    row.lease_expires_at = utcnow() + timedelta(seconds=LEASE_S)
    return row


def renew_lease(session: Session, run_id: int, owner: str) -> tuple[bool, bool]:
    """Extend this driver's lease; ``(still held, stop requested)``."""
    row = get_run(session, run_id, for_update=True)
    if row.lease_owner != owner:
        return False, True
    row.lease_expires_at = utcnow() + timedelta(seconds=LEASE_S)
    return True, row.stop_requested


def fence(session: Session, run_id: int, owner: str) -> None:
    """:class:`LeaseLost` unless ``owner`` holds the run's lease: the first statement of every transaction a
    driver writes in. The owner is the fencing token: each driver makes a new one (:func:`lease_owner_name`)
    and a takeover replaces it, as an epoch counter would be bumped.

    The check is a conditional UPDATE, so it holds the lock a takeover needs until this transaction ends
    (the run's row on PostgreSQL, the database's write lock on SQLite): a takeover waits for a commit under
    way, and once it is in, no transaction of the driver it replaced commits. A check by SELECT would not do
    on SQLite, which answers a SELECT outside the transaction that writes next (:func:`_lock_run`)."""
    result = cast(CursorResult[Any], session.execute(
        update(RunRow).where(RunRow.id == run_id, RunRow.lease_owner == owner).values(lease_owner=owner),
        execution_options={"synchronize_session": False}))
    if result.rowcount != 1:
        now = session.scalar(select(RunRow.lease_owner).where(RunRow.id == run_id))
        raise LeaseLost(f"run {run_id} was taken over by another driver ({now or 'none now'}): this driver "
                        "stopped writing to it")


def release_lease(session: Session, run_id: int, owner: str) -> None:
    row = get_run(session, run_id, for_update=True)
    if row.lease_owner == owner:
        row.lease_owner, row.lease_expires_at = None, None
