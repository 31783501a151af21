"""A fork server for sandbox children: their imports paid once, each child forked in milliseconds.

A candidate's child used to be a new Python process: 4 to 5 s of imports (torch, triton)
and Triton's own key before it could take a candidate, on the host's CPU, once for every
candidate. With a judge of 0.6 to 1 s per candidate, four spare children could not be
started fast enough, and the GPU waited for them (``benchmarks/eval_profile.py``).

A :class:`Zygote` is a sandbox that imports a handler's module and runs its ``preload``,
and then only forks. It runs no candidate, no spec, and never touches CUDA (a process that
has initialised CUDA cannot give it to a fork). Each child forked from it gets a session
of its own (so killing it kills what it started), its own scratch folder as its working
directory (and, when asked, its stdout and stderr there: see
:meth:`~kernelevo.isolation.sandbox.Sandbox.output_tail`), its parent-death signal armed again, its own
home and temporary folders and its writes confined to its folders
(:func:`kernelevo.isolation.containment.enter_forked`: the zygote is contained as every sandbox child is,
its user, network, environment and seccomp filter pass to its children, and it leaves the
confinement of writes to each of them), and
then the same request loop as a started child (:func:`kernelevo.isolation.child.serve`),
which builds the handler. Nothing passes from one child to the next: each is a copy of the
zygote, which no untrusted code has touched, and is killed after its candidate as before.

The parent side is a :class:`ForkServer` (the zygote's sandbox, used by one thread at a
time) and a :class:`ForkedSandbox` per child: a :class:`~kernelevo.isolation.sandbox.Sandbox` whose
process is not the parent's own child. It receives its end of the child's connection over
the zygote's socket (``SCM_RIGHTS``), watches the child through a pidfd, and asks the
zygote for its exit status once it has died.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import os
import select
import signal
import socket
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.reduction import recv_handle, send_handle
from typing import Any

from kernelevo.isolation import containment
from kernelevo.isolation.child import die_with_parent, redirect_output, serve
from kernelevo.isolation.sandbox import FailureKind, Sandbox, SandboxFailure

FORK_TIMEOUT_S = 30.0  # a fork and its reply take milliseconds; the zygote's own start is waited for apart
REAP_TIMEOUT_S = 10.0


@functools.lru_cache(maxsize=1)
def supported() -> bool:
    """Whether this system can watch a process it did not start (a pidfd: Linux 5.3 and later)."""
    if not hasattr(os, "pidfd_open"):
        return False
    try:
        os.close(os.pidfd_open(os.getpid()))
    except OSError:
        return False
    return True


@dataclass(frozen=True)
class ZygoteSetup:
    handler: str  # "module:Class", built in each child; the class may define ``preload(arg)``, run in the zygote
    arg: Any


@dataclass(frozen=True)
class Fork:
    scratch: str  # the child's working folder (the parent made it, and removes it)
    capture_output: bool = False  # the child's stdout and stderr to OUTPUT_LOG there, not the zygote's


@dataclass(frozen=True)
class Forked:
    pid: int  # the child's end of its connection follows this reply over the zygote's socket


@dataclass(frozen=True)
class Reap:
    pid: int  # a child that has exited: collect its status


class Zygote:
    """Sandbox handler: preloads the handler's module, then forks one child per :class:`Fork`."""

    def __init__(self, setup: ZygoteSetup, conn: Connection) -> None:
        self.setup, self.conn = setup, conn
        module_name, _, class_name = setup.handler.partition(":")
        cls = getattr(importlib.import_module(module_name), class_name)
        preload = getattr(cls, "preload", None)
        if callable(preload):
            preload(setup.arg)
        self._to_send: socket.socket | None = None

    def handle(self, request: Any) -> Any:
        if isinstance(request, Fork):
            return self._fork(request)
        if isinstance(request, Reap):
            return self._reap(request.pid)
        raise TypeError(f"unknown request {type(request).__name__}")

    def after_reply(self) -> None:
        """Send the new child's end of its connection, after the :class:`Forked` reply that announces it."""
        sock, self._to_send = self._to_send, None
        if sock is not None:
            with sock:
                send_handle(self.conn, sock.fileno(), os.getppid())

    def _fork(self, request: Fork) -> Forked:
        parent_end, child_end = socket.socketpair()
        zygote = os.getpid()
        pid = os.fork()
        if pid == 0:  # never returns
            _child(child_end, parent_end, self.conn, request, zygote, self.setup)
        child_end.close()
        self._to_send = parent_end
        return Forked(pid)

    @staticmethod
    def _reap(pid: int) -> int | None:
        """The exit status of ``pid`` (negative: the signal that killed it), once it has exited."""
        deadline = time.monotonic() + REAP_TIMEOUT_S
        while True:
            try:
                done, status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                return None
            if done:
                return os.waitstatus_to_exitcode(status)
            if time.monotonic() > deadline:
                return None
            time.sleep(0.005)


def _child(sock: socket.socket, other: socket.socket, zygote_conn: Connection, request: Fork, zygote: int,
           setup: ZygoteSetup) -> None:
    """The forked child: its own session, folder and output, then the handler's request loop; it never returns."""
    code = 0
    try:
        other.close()
        zygote_conn.close()  # the zygote's link to the parent is not this child's
        os.setsid()
        os.chdir(request.scratch)
        die_with_parent()
        if os.getppid() != zygote:  # the zygote died before the signal was armed
            os._exit(1)
        containment.enter_forked(request.scratch)  # its own folders, its writes confined to them
        if request.capture_output:  # else it prints where the zygote does
            redirect_output(request.scratch)
        serve(Connection(sock.detach()), setup.handler, setup.arg)
    except BaseException:  # nothing may unwind into the zygote's own loop
        code = 1
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


class ForkServer:
    """The parent's handle on a started :class:`Zygote`: forks and reaps, one at a time.

    Children are taken from one thread at a time, but killed from any (the evaluator's
    threads kill their precompilers on their own): the zygote's connection carries one
    request and its reply (and, for a fork, the child's socket) at a time, so every use
    holds the lock. Only :class:`SandboxFailure` leaves :meth:`fork`; :meth:`reap` never raises.
    """

    def __init__(self, sandbox: Sandbox, start_timeout_s: float = 180.0) -> None:
        self.sandbox, self.start_timeout_s = sandbox, start_timeout_s
        self._lock = threading.Lock()

    @property
    def pid(self) -> int | None:
        return self.sandbox.pid

    def is_ready(self) -> bool:
        with self._lock:
            return self.sandbox.is_ready()

    def alive(self) -> bool:
        return self.sandbox.alive()

    def fork(self, scratch: str, *, capture_output: bool = False) -> tuple[int, int]:
        """A new child working in ``scratch``: its pid, and the parent's end of its connection (a file descriptor).

        ``capture_output``: the child's stdout and stderr go to OUTPUT_LOG in ``scratch`` (see Sandbox.output_tail).
        """
        with self._lock:
            try:
                reply = self.sandbox.call(Fork(scratch, capture_output),
                                          {"*": FORK_TIMEOUT_S, "start": self.start_timeout_s})
                conn = self.sandbox.connection
                if not isinstance(reply, Forked) or conn is None:
                    raise SandboxFailure(FailureKind.START, f"the fork server answered {reply!r}")
                return reply.pid, recv_handle(conn)
            except (OSError, EOFError, RuntimeError, AssertionError) as exc:
                self.sandbox.kill()  # its connection can no longer be trusted to be in step
                raise SandboxFailure(FailureKind.START, f"the fork server failed: {exc!r}") from None

    def reap(self, pid: int) -> int | None:
        """The exit status of a child that has exited (negative: the signal), None if the zygote cannot tell."""
        with self._lock:
            try:
                code = self.sandbox.call(Reap(pid), {"*": REAP_TIMEOUT_S + 5})
            except Exception:  # a dead zygote: its children died with it, their statuses with it
                return None
        return code if isinstance(code, int) else None

    def kill(self) -> None:
        with self._lock:
            self.sandbox.kill()


class ForkedSandbox(Sandbox):
    """A sandbox whose process is forked by ``server`` (a :class:`ForkServer`)."""

    def __init__(self, server: ForkServer, *, name: str = "sandbox", scratch_root: str | None = None,
                 capture_output: bool = False) -> None:
        super().__init__(handler="", name=name, scratch_root=scratch_root, capture_output=capture_output)
        self.server = server
        self._pid: int | None = None
        self._pidfd: int | None = None
        self._code: int | None = None
        self._reaped = False
        # stop() kills from another thread while the calling thread may be waiting on the child's death: the
        # pidfd is waited on, signalled and closed under this lock, so it is never closed twice (a second
        # close could shut a descriptor the process has since reused) nor waited on once closed
        self._pidfd_lock = threading.RLock()

    def start(self) -> None:
        """Fork the child (waiting for the zygote's own start first); SandboxFailure if the zygote cannot."""
        self.scratch = tempfile.mkdtemp(prefix=f"kernelevo-{self.name}-", dir=self.scratch_root)
        self.plan = self.server.sandbox.plan  # the fork server's user and folders are the child's
        self.started_at = time.perf_counter()
        try:
            closed = containment.unreachable(self.scratch, self.plan)
            if closed:
                raise SandboxFailure(FailureKind.START, closed)
            containment.give_to(self.scratch, self.plan)
            pid, fd = self.server.fork(self.scratch, capture_output=self.capture_output)
        except SandboxFailure:
            self._remove_scratch()
            raise
        self._pid = pid
        try:
            self._pidfd = os.pidfd_open(pid)
        except ProcessLookupError:  # it has exited already, and been collected
            self._reaped = True
        self._conn = Connection(fd)

    @property
    def pid(self) -> int | None:
        return self._pid

    def alive(self) -> bool:
        with self._pidfd_lock:
            return self._pid is not None and not self._reaped and not self._exited(0.0)

    def _exited(self, timeout_s: float) -> bool:
        if self._pidfd is None:
            return True
        readable, _, _ = select.select([self._pidfd], [], [], timeout_s)
        return bool(readable)

    def _kill_process(self) -> bool:
        if self._pid is None:
            return False
        with self._pidfd_lock:
            if not self._reaped:  # a pid collected by the zygote may belong to another process by now
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self._pid, signal.SIGKILL)
                if self._pidfd is not None:
                    with contextlib.suppress(ProcessLookupError, OSError):
                        signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)
                self._exit_code(timeout_s=10)
            if self._pidfd is not None:
                os.close(self._pidfd)
                self._pidfd = None
        return True

    def _exit_code(self, timeout_s: float) -> int | None:
        with self._pidfd_lock:
            if self._reaped or self._pid is None:
                return self._code
            if not self._exited(timeout_s):
                return None
            self._reaped = True
            self._code = self.server.reap(self._pid)
            return self._code
