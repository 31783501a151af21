"""Isolated child processes for untrusted code (specs and candidate kernels).

A :class:`Sandbox` is one child process started with ``subprocess.Popen`` in a session of
its own, so that killing it kills everything it started. It talks to its parent over a
socket pair wrapped in a ``multiprocessing`` connection, which pickles with torch's
reducers: CUDA tensors travel as IPC handles, CPU tensors through shared memory.

The child runs a *handler*: an object built from ``"module:Class"`` after the child has
set its limits and environment (so ``TRITON_INTERPRET`` is in place before anything
imports triton). The parent sends requests; the handler answers each with one reply and
may send :class:`Progress` notes first, which move the request into a phase with a
deadline of its own (for example compile, then run). Nothing the child does can raise
into the parent except as a :class:`SandboxFailure`. The child's side is
:mod:`kernelevo.isolation.child`.

With ``capture_output`` the child writes its stdout and stderr (file descriptors 1 and 2,
so C libraries and the processes it starts too) to :data:`OUTPUT_LOG` in its scratch
folder instead of the parent's terminal, and :meth:`Sandbox.output_tail` reads the end of
it: what untrusted code prints (its own prints, a CUDA assert, a compiler's crash dump of
hundreds of lines) is kept with its result, and the search's terminal stays clean.

Every child is contained before it builds its handler (:mod:`kernelevo.isolation.containment`): another
user, no network, an environment without secrets (the inherited one goes through an
allow-list), writes only in its scratch folder and the ``writable`` folders it is handed,
no_new_privs, a seccomp filter, its limits. It sends what it got with its "ready"
(:attr:`Sandbox.protections`); a protection this system does not allow is logged once.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from kernelevo.isolation import containment
from kernelevo.isolation.containment import Plan, Report
from kernelevo.isolation.failure import FailureKind, SandboxFailure
from kernelevo.isolation.output import describe_exit, read_end, tail_text

log = logging.getLogger(__name__)

OUTPUT_LOG = "output.log"  # a capturing child's stdout and stderr together, in its scratch folder
_KEPT_OUTPUT_BYTES = 64 << 10  # of a killed child's output, what outlives its scratch folder


@dataclass(frozen=True)
class Progress:
    """Sent by a handler before its reply: the request has entered ``phase``."""

    phase: str
    detail: str = ""


@dataclass(frozen=True)
class HandlerError:
    """Reply sent when a handler raised: the exception's type, message and traceback."""

    type_name: str
    message: str
    traceback: str


@dataclass(frozen=True)
class Limits:
    """Resource limits applied inside the child before the handler is built.

    ``address_space_bytes`` is only applied when no GPU is used: CUDA reserves far more
    virtual address space than it uses, so an address-space limit would break it.
    """

    address_space_bytes: int | None = None
    file_size_bytes: int = 1 << 30
    core_dumps: bool = False


@dataclass
class SandboxSetup:
    handler: str
    arg: Any
    limits: Limits
    scratch: str
    capture_output: bool = False  # stdout and stderr to OUTPUT_LOG in ``scratch``
    containment: Plan = field(default_factory=Plan)


@dataclass(frozen=True)
class Ready:
    """A child's first message once its handler is built: the protections it has."""

    protections: Report


# A fork server's own writes are not confined: it runs no untrusted code, and each child it forks
# confines its own (Landlock's layers only narrow: a confined fork server could give its children
# no folder of their own).
FORK_SERVERS = frozenset({"kernelevo.isolation.zygote:Zygote"})
# Handlers that start children of their own on the GPU (the judge: candidate children, directly or through a
# fork server; a capture: inductor's compile and autotuning workers). A child inherits its parent's write
# rules, and CUDA writes its process's /proc entries as it starts: such a parent may write beneath /proc,
# and each contained child narrows that to its own entries.
GPU_PARENTS = frozenset({"kernelevo.evaluation.judge.process:JudgeProcess",
                         "kernelevo.variation.seeding.inductor_capture:CaptureHandler", *FORK_SERVERS})


@dataclass
class Sandbox:
    """One isolated child process running ``handler`` (``"module:Class"``).

    Call :meth:`start` (returns at once), then :meth:`call` for each request. The child
    is killed with its whole process group by :meth:`kill`, on a timeout, or when the
    parent dies (``PR_SET_PDEATHSIG``).
    """

    handler: str
    arg: Any = None
    env: Mapping[str, str] = field(default_factory=dict)
    limits: Limits = field(default_factory=Limits)
    scratch_root: str | None = None
    name: str = "sandbox"
    # False: the child gets ``env`` alone, not this process's environment as it is now
    inherit_env: bool = True
    # True: the child's stdout and stderr go to OUTPUT_LOG in its scratch folder (see output_tail)
    capture_output: bool = False
    # folders the child may write besides its scratch folder (shared caches); None: those this process
    # may write, when it is itself a sandboxed child, else none
    writable: tuple[str, ...] | None = None
    # False: the caller says what the child lacks (kernelevo.isolation.probe.probe); else it is logged once
    note_missing: bool = True

    def __post_init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._conn: Connection | None = None
        self._ready = False
        self._kept_output: tuple[bytes, int] | None = None  # the end of the output and its size, once killed
        self.scratch = ""
        self.started_at = 0.0
        self.ready_after_s: float | None = None
        self.plan = Plan()
        self.protections: Report | None = None  # what the child said it has, once ready
        self.replied_at = 0.0  # time.perf_counter() when the last reply's first bytes were readable

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> None:
        """Start the child; it builds its handler in the background."""
        parent_sock, child_sock = socket.socketpair()
        self.scratch = tempfile.mkdtemp(prefix=f"kernelevo-{self.name}-", dir=self.scratch_root)
        env = {**containment.child_environment(self.env, inherit=self.inherit_env), "PYTHONUNBUFFERED": "1"}
        self.plan = containment.plan(self.scratch, self.writable, confine_writes=self.handler not in FORK_SERVERS,
                                     env=env, starts_children=self.handler in GPU_PARENTS)
        containment.give_to(self.scratch, self.plan)
        self.started_at = time.perf_counter()
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "kernelevo.isolation", str(child_sock.fileno()), str(os.getpid())],
            pass_fds=(child_sock.fileno(),),
            start_new_session=True,
            env=env,
            cwd=self.scratch,
            stdin=subprocess.DEVNULL,
        )
        child_sock.close()
        self._conn = Connection(parent_sock.detach())
        self._conn.send(SandboxSetup(self.handler, self.arg, self.limits, self.scratch, self.capture_output,
                                     self.plan))

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def is_ready(self) -> bool:
        """True once the handler is built (never blocks)."""
        if not self._ready and self._conn is not None and self.alive():
            with contextlib.suppress(OSError, EOFError):
                if self._conn.poll(0):
                    self._receive_ready()
        return self._ready

    def wait_ready(self, timeout_s: float) -> None:
        """Block until the handler is built; raise :class:`SandboxFailure` otherwise."""
        if self._ready:
            return
        assert self._conn is not None, "start() the sandbox first"
        if not self._conn.poll(timeout_s):
            self.kill()
            raise SandboxFailure(FailureKind.START, f"{self.name} did not start within {timeout_s:.0f} s")
        self._receive_ready()

    def _receive_ready(self) -> None:
        assert self._conn is not None
        try:
            msg = self._conn.recv()
        except (EOFError, OSError):
            raise self._death("start") from None
        if isinstance(msg, HandlerError):
            self.kill()
            raise SandboxFailure(FailureKind.START, f"{msg.type_name}: {msg.message}", detail=msg.traceback)
        if isinstance(msg, Ready):
            self.protections = msg.protections
            if self.note_missing:
                containment.note(msg.protections, self.name)
        self._ready = True
        self.ready_after_s = time.perf_counter() - self.started_at

    def kill(self) -> None:
        """Kill the child and every process in its session; idempotent.

        The scratch folder goes with it; the end of a captured output is kept (see :meth:`output_tail`).
        """
        if not self._kill_process():
            return
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self._keep_output()
        self._remove_scratch()

    def stop(self) -> None:
        """SIGKILL the child from another thread: a call waiting on it fails as the child's death."""
        self._kill_process()

    def _kill_process(self) -> bool:
        """SIGKILL to the child's session, then wait for the child; False if it was never started."""
        if self._proc is None:
            return False
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._proc.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self._proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=10)
        return True

    def _exit_code(self, timeout_s: float) -> int | None:
        """The child's exit status once it has exited (negative: the signal), None if unknown by then."""
        if self._proc is None:
            return None
        with contextlib.suppress(subprocess.TimeoutExpired):
            return self._proc.wait(timeout=timeout_s)
        return None

    @property
    def connection(self) -> Connection | None:
        return self._conn

    def close(self, timeout_s: float = 5.0) -> None:
        """Ask the child to exit, then make sure it has."""
        if self._conn is not None and self.alive():
            with contextlib.suppress(OSError, BrokenPipeError):
                self._conn.send(None)
            with contextlib.suppress(subprocess.TimeoutExpired):
                assert self._proc is not None
                self._proc.wait(timeout=timeout_s)
        self.kill()

    # -- output ----------------------------------------------------------------------------
    def output_tail(self, max_bytes: int = 4096) -> str:
        """The last ``max_bytes`` of what the child printed, stdout and stderr together; never raises.

        "" when it printed nothing or ``capture_output`` is off. A tail that was cut starts with a
        line such as ``[... 123456 bytes earlier]``, then the first whole line after the cut.
        It works once the child has died, and after :meth:`kill`: that removes the scratch folder
        the output is written to but keeps its last 64 KiB first (read once, there), so the tail
        of a child this sandbox killed itself (a timeout, a death) is not lost either.
        """
        if not self.capture_output or not self.scratch or max_bytes <= 0:
            return ""
        try:
            end, size = self._kept_output or read_end(Path(self.scratch) / OUTPUT_LOG, max_bytes + 1)
            return tail_text(end, size, max_bytes)
        except Exception as exc:  # a diagnostic: it must never cost the caller its result
            log.debug("the output of %s could not be read: %r", self.name, exc)
            return ""

    def _keep_output(self) -> None:
        """Keep the end of the output before the scratch folder goes (the first kill only: later ones find none)."""
        if self.capture_output and self.scratch and self._kept_output is None:
            self._kept_output = read_end(Path(self.scratch) / OUTPUT_LOG, _KEPT_OUTPUT_BYTES + 1)

    def _remove_scratch(self) -> None:
        if self.scratch and Path(self.scratch).exists():
            import shutil

            shutil.rmtree(self.scratch, ignore_errors=True)

    # -- requests --------------------------------------------------------------------------
    def call(
        self,
        request: Any,
        deadlines: Mapping[str, float],
        *,
        first_phase: str = "run",
        on_progress: Callable[[Progress, float], None] | None = None,
    ) -> Any:
        """Send ``request`` and return the reply.

        ``deadlines`` maps phase names to seconds; each phase the child announces with
        :class:`Progress` starts a fresh clock (phases not named get ``deadlines['*']``,
        else the longest one). ``on_progress`` sees each note with the
        ``time.perf_counter()`` at which it arrived (its first bytes were readable), and
        :attr:`replied_at` is the same for the reply. On a timeout the child is killed and
        :class:`SandboxFailure` names the phase that ran out.
        """
        self.send(request)
        return self.reply(deadlines, first_phase=first_phase, on_progress=on_progress)

    def send(self, request: Any) -> None:
        """Send ``request`` without waiting: :meth:`reply` collects the answer."""
        assert self._conn is not None, "start() the sandbox first"
        try:
            self._conn.send(request)  # a child still starting reads it once ready, and answers "ready" first
        except (OSError, BrokenPipeError):
            raise self._death("send") from None

    def reply(
        self,
        deadlines: Mapping[str, float],
        *,
        first_phase: str = "run",
        on_progress: Callable[[Progress, float], None] | None = None,
    ) -> Any:
        """The answer to the request last sent, under ``deadlines`` (see :meth:`call`)."""
        assert self._conn is not None, "start() the sandbox first"
        if not self._ready:
            self.wait_ready(deadlines.get("start", 120.0))
        phase, detail = first_phase, ""
        deadline = time.monotonic() + self._limit(deadlines, phase)
        while True:
            remaining = deadline - time.monotonic()
            try:
                has_data = remaining > 0 and self._conn.poll(remaining)
                arrived = time.perf_counter()  # before recv: reading and unpickling wait on the GIL
            except (OSError, EOFError):
                raise self._death(phase, detail) from None
            if not has_data:
                self.kill()
                limit = self._limit(deadlines, phase)
                raise SandboxFailure(
                    FailureKind.TIMEOUT, f"{phase} exceeded its {limit:g} s limit", phase=phase, detail=detail
                )
            try:
                msg = self._conn.recv()
            except (EOFError, OSError):
                raise self._death(phase, detail) from None
            except Exception as exc:  # a reply that does not unpickle
                self.kill()
                raise SandboxFailure(FailureKind.HANDLER_ERROR, f"unreadable reply: {exc}", phase=phase) from None
            if isinstance(msg, Progress):
                if on_progress is not None:
                    on_progress(msg, arrived)
                phase, detail = msg.phase, msg.detail
                deadline = time.monotonic() + self._limit(deadlines, phase)
                continue
            if isinstance(msg, HandlerError):
                raise SandboxFailure(
                    FailureKind.HANDLER_ERROR, f"{msg.type_name}: {msg.message}", phase=phase, detail=msg.traceback
                )
            self.replied_at = arrived
            return msg

    @staticmethod
    def _limit(deadlines: Mapping[str, float], phase: str) -> float:
        if phase in deadlines:
            return deadlines[phase]
        if "*" in deadlines:
            return deadlines["*"]
        return max(deadlines.values())

    def _death(self, phase: str, detail: str = "") -> SandboxFailure:
        code = self._exit_code(timeout_s=5)
        self.kill()
        return SandboxFailure(FailureKind.DIED, f"the child process died ({describe_exit(code)})", phase=phase,
                              detail=detail)

    def __enter__(self) -> Sandbox:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
