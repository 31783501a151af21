"""Sandbox handlers used by tests/test_sandbox.py (imported by the child via PYTHONPATH)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import Any

from kernelevo.sandbox import Progress

REMEMBERED: list[Any] = []  # state a candidate could leave behind in its process
PRELOADED_BY: int | None = None  # the fork server's pid, when it preloaded this module


class Echo:
    @staticmethod
    def preload(arg: Any) -> None:  # run once in a fork server (kernelevo.zygote)
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
