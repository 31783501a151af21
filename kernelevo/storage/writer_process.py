"""The store's writer process: a driver's group commits, made beside it.

With island actors the driver's CPU is what keeps evaluators busy, and a third of it went to the store's
transactions (SQLAlchemy's statements, JSON, SQLite's commit: py-spy, 8 islands, benchmarks/README.md).
A driver made with ``RunRecorder(..., writer_process=True)`` hands each batch of rows
(:class:`~kernelevo.storage.writes.Batch`, built in the driver) through a pipe to this process, which
stores them in one transaction per round of what has come in, and goes on at once.

What each side sees:

- a write the writer cannot make (the database away) is tried again every ``RETRY_S`` with what comes in
  meanwhile, in one transaction, for up to the recorder's ``GIVE_UP_AFTER_S``; then it reports the
  failure and exits, and the driver's next commit raises it (:class:`StoreWriterFailed`: the run can be
  resumed);
- a lease another driver took (the fence) is reported as :class:`~kernelevo.storage.runs.LeaseLost`, and
  nothing more is written;
- a writer that dies (killed) is found at the driver's next commit: :class:`StoreWriterFailed`, with its
  exit status; what it had stored is kept, what it held is lost (as a killed driver loses its last
  tenth of a second);
- a driver that dies (killed) closes the pipe: the writer stores what it had received, and exits. It
  ignores SIGINT: a Ctrl-C in the terminal is the driver's to handle (it stops the run, then closes the
  writer, which stores everything first).

The process is started as ``python -m kernelevo.storage.writer_process FD`` (not multiprocessing's spawn,
which imports the driver's ``__main__`` again: a user's script); the database's URL comes through the
pipe, never the command line.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

from kernelevo.storage.runs import LeaseLost
from kernelevo.storage.writes import Batch

log = logging.getLogger(__name__)

START_TIMEOUT_S = 60.0  # for the process to start and open the database
RETRY_S = 0.1  # a failed write is tried again this often (with what came in since)
CLOSE_TIMEOUT_S = 60.0  # for the last writes to be stored when the run ends


class StoreWriterFailed(RuntimeError):
    """The store's writer process could not store the run's records (or died): the run stops; resume it."""


class WriterProcess:
    """The driver's end: :meth:`send` batches, :meth:`poll` for a failure, :meth:`close` to store the rest."""

    def __init__(self, url: str, run_id: int, owner: str | None, give_up_after_s: float) -> None:
        ours, theirs = socket.socketpair()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "kernelevo.storage.writer_process", str(theirs.fileno())],
            pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL)
        theirs.close()
        self.conn = Connection(ours.detach())
        self.failure: BaseException | None = None
        self._syncs = 0
        self._send(("open", url, run_id, owner, give_up_after_s))
        self._wait_for("ready", START_TIMEOUT_S)

    @property
    def pid(self) -> int:
        return self.process.pid

    def send(self, batch: Batch) -> None:
        """``batch`` on its way (raises a failure the writer reported since the last call)."""
        self.poll()
        self._send(("write", batch))

    def poll(self) -> None:
        """Raise the failure the writer reported, or its death, if either happened."""
        if self.failure is not None:
            raise self.failure
        try:
            while self.conn.poll():
                self._answer(self.conn.recv())
        except (EOFError, OSError):
            self._died()

    def sync(self, timeout_s: float = CLOSE_TIMEOUT_S) -> None:
        """Wait until what was sent is stored (tests; readers that need it now)."""
        self._syncs += 1
        self._send(("sync", self._syncs))
        self._wait_for("synced", timeout_s, self._syncs)

    def close(self, timeout_s: float = CLOSE_TIMEOUT_S) -> None:
        """Store what was sent, and end the process (raises what it could not store)."""
        try:
            if self.failure is None and self.process.poll() is None:
                self._send(("close",))
                self._wait_for("closed", timeout_s)
        finally:
            self.conn.close()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def _send(self, message: tuple[Any, ...]) -> None:
        try:
            self.conn.send(message)
        except OSError:
            self._died()

    def _wait_for(self, kind: str, timeout_s: float, token: Any = None) -> None:
        deadline = time.monotonic() + timeout_s
        while True:
            if self.failure is not None:
                raise self.failure
            left = deadline - time.monotonic()
            try:
                if left <= 0 or not self.conn.poll(left):
                    self.failure = StoreWriterFailed(
                        f"the store's writer process (pid {self.pid}) did not answer within {timeout_s:g} s")
                    self.process.kill()
                    raise self.failure
                message = self.conn.recv()
            except (EOFError, OSError):
                self._died()
            if message[0] == kind and (token is None or message[1] == token):
                return
            self._answer(message)

    def _answer(self, message: tuple[Any, ...]) -> None:
        if message[0] == "lease_lost":
            self.failure = LeaseLost(message[1])
        elif message[0] == "failed":
            self.failure = StoreWriterFailed(f"the store's writer process could not store the run: {message[1]}")
        if self.failure is not None:
            raise self.failure

    def _died(self) -> None:
        code = self.process.wait()
        self.failure = StoreWriterFailed(f"the store's writer process (pid {self.pid}) died (exit status {code}): "
                                         "the records it held were lost; resume the run")
        raise self.failure


# -- the writer's side ------------------------------------------------------------------------------------
def serve(conn: Connection) -> None:
    """Store the batches that come through ``conn`` until it is closed (or closes)."""
    from kernelevo.storage.database import Database
    from kernelevo.storage.writes import RowWriter

    _, url, run_id, owner, give_up_after_s = conn.recv()
    db = Database(url)  # (migrated: the driver opened it)
    writer = RowWriter(db, run_id, owner)
    conn.send(("ready",))
    inbox: queue.SimpleQueue[tuple[Any, ...]] = queue.SimpleQueue()
    # a thread takes what comes in as it comes, so that the driver's send never waits on a transaction
    threading.Thread(target=_receive, args=(conn, inbox), daemon=True).start()
    pending, syncs, failing_since = Batch(), [], None
    while True:
        try:
            message = inbox.get(timeout=RETRY_S) if pending else inbox.get()
        except queue.Empty:
            message = ("retry",)
        messages = [message]
        while not inbox.empty():  # everything that came in goes in one transaction
            messages.append(inbox.get())
        closing = None
        for message in messages:
            if message[0] == "write":
                pending.extend(message[1])
            elif message[0] == "sync":
                syncs.append(message[1])
            elif message[0] in ("close", "eof"):
                closing = message[0]
        if pending:
            try:
                writer.write(pending)
            except LeaseLost as exc:
                _tell(conn, ("lease_lost", str(exc)))
                return
            except Exception as exc:
                now = time.monotonic()
                failing_since = failing_since or now
                if closing or now - failing_since > give_up_after_s:
                    _tell(conn, ("failed", f"{type(exc).__name__}: {exc}"))
                    return
                if failing_since == now:
                    log.warning("could not write %d records to the database, trying again: %s", len(pending), exc)
                continue
            pending, failing_since = Batch(), None
        for token in syncs:
            _tell(conn, ("synced", token))
        syncs = []
        if closing:
            if closing == "close":
                _tell(conn, ("closed",))
            db.dispose()
            return


def _receive(conn: Connection, inbox: queue.SimpleQueue[tuple[Any, ...]]) -> None:
    while True:
        try:
            inbox.put(conn.recv())
        except (EOFError, OSError):  # the driver closed the pipe, or died: store what came, and exit
            inbox.put(("eof",))
            return


def _tell(conn: Connection, message: tuple[Any, ...]) -> None:
    with contextlib.suppress(OSError):  # the driver is gone: nothing to tell
        conn.send(message)


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the driver stops on Ctrl-C, then closes this writer
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s store writer: %(message)s")
    serve(Connection(int(sys.argv[1])))


if __name__ == "__main__":
    main()
