"""Starting the runs queued through the API, as many at once as there are run slots.

A queued run starts as ``kernelevo run --resume ID`` when a slot is free (one per GPU of
this machine, or ``KERNELEVO_RUN_SLOTS``): a local child process in a session of its own,
its output in ``<data dir>/logs/run-ID.log``; or, when ``KERNELEVO_RAY_ADDRESS`` is set, a
Ray job through Ray's Job Submission client (whose nodes must reach the database: PostgreSQL
on a real cluster; ``KERNELEVO_RUN_COMMAND=kernelevo`` where they have it installed). The
driver takes the run's lease and sets its status itself; a driver that dies before it could
(a crash at start, a job that failed) has its run marked failed with the end of its log. The
drivers outlive this server: a run goes on while the API restarts.

A run whose settings choose the shared evaluator pool (``pool = "shared"``) takes no slot when
its drivers attach to a Ray cluster (``KERNELEVO_RAY_ADDRESS``, or ``RAY_ADDRESS`` inherited by
the local drivers): it starts at once, and the cluster's one pool shares the GPUs among such
runs by their weights. Without a cluster each driver starts a Ray of its own, so it waits for a
slot like any run.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from fastapi.concurrency import run_in_threadpool
from sqlalchemy import select

from kernelevo.records.run import RunStatus
from kernelevo.settings import Settings, data_dir
from kernelevo.storage.database import Database, as_utc, utcnow
from kernelevo.storage.runs import fail_unended_run, get_run, status_of
from kernelevo.storage.tables import RunRow
from kernelevo.utils.devices import visible_gpus

log = logging.getLogger(__name__)


@dataclass
class _Launched:
    run_id: int
    process: subprocess.Popen[bytes] | None = None
    job_id: str | None = None
    log_path: Path | None = None
    at: datetime = field(default_factory=utcnow)


class RunLauncher:
    def __init__(self, db: Database, settings: Settings, *, poll_s: float = 1.0) -> None:
        self.db, self.settings, self.poll_s = db, settings, poll_s
        self.slots = settings.run_slots or max(1, visible_gpus())
        self.launched: dict[int, _Launched] = {}
        self._client: Any = None

    async def run(self) -> None:
        while True:
            try:
                await run_in_threadpool(self.tick)  # it reads the database: never on the event loop
            except Exception:  # the next tick tries again; the API keeps serving
                log.exception("the run launcher's tick failed")
            await asyncio.sleep(self.poll_s)

    def tick(self) -> None:
        """Reap drivers that ended; start queued runs while slots are free."""
        self._reap()
        with self.db.session() as session:
            active = [r for r in session.scalars(select(RunRow).where(RunRow.status == RunStatus.RUNNING.value))
                      if status_of(r) == RunStatus.RUNNING]
            queued = list(session.scalars(select(RunRow).where(RunRow.status == RunStatus.QUEUED.value)
                                          .order_by(RunRow.id)))
        starting = [r for r in queued if r.id in self.launched]
        holding = {r.id for r in active if self._takes_slot(r)} | {r.id for r in starting if self._takes_slot(r)}
        free = self.slots - len(holding)
        waiting = [r for r in queued if r.id not in self.launched]
        for row in [r for r in waiting if not self._takes_slot(r)]:  # the shared pool takes them all
            self._launch(row.id)
        for row in [r for r in waiting if self._takes_slot(r)][:max(0, free)]:
            self._launch(row.id)

    def _takes_slot(self, row: RunRow) -> bool:
        """Whether the run needs a slot of its own: every run, but one on a Ray cluster's shared pool."""
        config = row.config or {}
        on_cluster = bool(self.settings.ray_address or os.environ.get("RAY_ADDRESS"))
        return not (on_cluster and config.get("ray", True) and config.get("pool") == "shared")

    def _launch(self, run_id: int) -> None:
        env = {**os.environ, "KERNELEVO_DATABASE_URL": self.db.engine.url.render_as_string(hide_password=False)}
        program = shlex.split(self.settings.run_command) if self.settings.run_command else \
            [sys.executable, "-m", "kernelevo.cli"]
        command = [*program, "run", "--resume", str(run_id), "--plain"]
        if self.settings.ray_address:
            job_id = self._jobs().submit_job(entrypoint=shlex.join(command),
                                             runtime_env={"env_vars": {"KERNELEVO_DATABASE_URL":
                                                                       env["KERNELEVO_DATABASE_URL"]}})
            self.launched[run_id] = _Launched(run_id, job_id=job_id)
            self._note_driver(run_id, f"ray job {job_id}")
            return
        logs = data_dir() / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        path = logs / f"run-{run_id}.log"
        with path.open("ab") as out:
            process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                       stderr=subprocess.STDOUT, start_new_session=True)
        self.launched[run_id] = _Launched(run_id, process=process, log_path=path)
        self._note_driver(run_id, f"local pid {process.pid}, log {path}")

    def _note_driver(self, run_id: int, driver: str) -> None:
        with self.db.session() as session:
            get_run(session, run_id).driver = driver

    def _jobs(self) -> Any:
        if self._client is None:
            from ray.job_submission import JobSubmissionClient

            self._client = JobSubmissionClient(self.settings.ray_address)
        return self._client

    def _reap(self) -> None:
        for run_id, launched in list(self.launched.items()):
            ended, detail = self._ended(launched)
            if not ended:
                continue
            del self.launched[run_id]
            with self.db.session() as session:  # locked: a driver resuming it from a shell goes first or after
                row = get_run(session, run_id, for_update=True)
                finished = as_utc(row.finished_at)
                if finished is not None and finished >= launched.at:
                    continue  # the driver ended the run itself (it may be queued again since)
                fail_unended_run(row, f"the run's driver ended before finishing it ({detail})")

    def _ended(self, launched: _Launched) -> tuple[bool, str]:
        if launched.process is not None:
            code = launched.process.poll()
            if code is None:
                return False, ""
            tail = ""
            if launched.log_path is not None:
                with contextlib.suppress(OSError):
                    tail = launched.log_path.read_text(errors="replace").strip().splitlines()[-1][:500]
            return True, f"exit status {code}" + (f": {tail}" if tail else "")
        status = str(self._jobs().get_job_status(launched.job_id))
        if status.endswith(("SUCCEEDED", "FAILED", "STOPPED")):
            return True, f"ray job {launched.job_id} {status.rsplit('.', 1)[-1].lower()}"
        return False, ""

    def close(self) -> None:
        """The drivers go on without this server; only the bookkeeping of their exits stops."""
        self.launched.clear()
