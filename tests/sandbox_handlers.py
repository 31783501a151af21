"""Sandbox handlers used by tests/isolation/test_sandbox.py (imported by the child via PYTHONPATH)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import Any

from kernelevo.isolation.sandbox import Progress

REMEMBERED: list[Any] = []  # state a candidate could leave behind in its process
PRELOADED_BY: int | None = None  # the fork server's pid, when it preloaded this module


class Echo:
    @staticmethod
    def preload(arg: Any) -> None:  # run once in a fork server (kernelevo.isolation.zygote)
        global PRELOADED_BY
        PRELOADED_BY = os.getpid()

    def __init__(self, arg: Any, conn: Any) -> None:
        self.conn = conn
        self.arg = arg

    def handle(self, request: Any) -> Any:
        kind, value = request
        if kind == "echo":
            return (self.arg, value)
        if kind == "raise":
            raise ValueError(value)
        if kind == "sleep":
            time.sleep(value)
            return "woke"
        if kind == "phases":  # announce each phase, then sleep in the last one
            for phase in value[:-1]:
                self.conn.send(Progress(phase, "detail"))
            time.sleep(value[-1])
            return "done"
        if kind == "frozen":  # objects kept from the garbage collector (gc.freeze) before any request
            import gc

            return gc.get_freeze_count()
        if kind == "exit":
            os._exit(value)
        if kind == "signal":
            os.kill(os.getpid(), value)
        if kind == "grandchild":  # a process of our own that would outlive us if only we were killed
            proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
            self.conn.send(Progress("grandchild", str(proc.pid)))
            time.sleep(value)
        if kind == "unpicklable":
            return lambda: value
        if kind == "allocate":
            return len(bytearray(value))
        if kind == "pid":
            return os.getpid()
        if kind == "stamped":  # when the reply was made (perf_counter is one clock for every process of a host)
            return time.perf_counter(), "x" * value
        if kind == "remember":
            REMEMBERED.append(value)
            return list(REMEMBERED)
        if kind == "process":  # who this child is, and where
            return {"pid": os.getpid(), "session": os.getsid(0), "cwd": os.getcwd(), "preloaded_by": PRELOADED_BY}
        raise KeyError(kind)


class BrokenAtStart:
    def __init__(self, arg: Any, conn: Any) -> None:
        raise RuntimeError("cannot start: " + str(arg))




class BrokenPreload(Echo):
    @staticmethod
    def preload(arg: Any) -> None:
        raise RuntimeError("cannot preload: " + str(arg))


def _outcome(attempt: Any) -> str:
    """'done' (and what it gave, if anything), or the error that stopped it."""
    try:
        value = attempt()
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return "done" if value is None else f"done: {value}"


class Attacks:
    """What untrusted code in a sandbox child tries (tests/isolation/test_containment.py): each says what happened."""

    def __init__(self, arg: Any, conn: Any) -> None:
        pass

    def handle(self, request: Any) -> Any:
        kind, arg = request
        return getattr(self, kind)(arg)

    @staticmethod
    def where(_: Any) -> dict[str, Any]:
        import tempfile

        return {"uid": os.getuid(), "cwd": os.getcwd(), "home": os.environ.get("HOME"), "tmp": tempfile.gettempdir()}

    @staticmethod
    def environment(names: list[str]) -> dict[str, str | None]:
        return {name: os.environ.get(name) for name in names}

    @staticmethod
    def connect(address: tuple[str, int]) -> str:
        import socket

        return _outcome(lambda: socket.create_connection(address, timeout=5).sendall(b"a sandboxed child was here"))

    @staticmethod
    def unix_socket(_: Any) -> str:
        import socket

        def echo() -> bytes:
            left, right = socket.socketpair()
            with left, right:
                left.sendall(b"ping")
                return right.recv(4)

        return _outcome(echo)

    @staticmethod
    def write(path: str) -> str:
        from pathlib import Path

        return _outcome(lambda: Path(path).write_text("a sandboxed child was here") and None)

    @staticmethod
    def read(path: str) -> str:
        from pathlib import Path

        return _outcome(lambda: os.listdir(path) if Path(path).is_dir() else Path(path).read_bytes()[:0])

    @staticmethod
    def setuid(_: Any) -> str:
        target = 0 if os.getuid() != 0 else 12345  # root, or as uid 0 without capabilities, anyone else
        return _outcome(lambda: os.setuid(target))

    @staticmethod
    def candidate(arg: tuple[str, str]) -> Any:
        """Execute ``source`` as a candidate whose kernels go to Triton cache ``cache``; what it left in ``ATTACKS``."""
        from kernelevo.evaluation.child.candidate_module import exec_candidate

        source, cache = arg
        os.environ["TRITON_CACHE_DIR"] = cache
        return exec_candidate(source).ATTACKS
