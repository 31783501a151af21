"""A sandbox handler that prints, for the output-capture tests of tests/isolation/test_sandbox.py (imported by the child
via PYTHONPATH)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import Any


class Printer:
    def __init__(self, arg: Any, conn: Any) -> None:
        self.conn = conn

    def handle(self, request: Any) -> Any:
        kind, value = request
        if kind == "print":  # every way a candidate's child prints: Python's streams, the descriptor, a process
            print(f"{value} on stdout")
            print(f"{value} on stderr", file=sys.stderr)
            os.write(1, f"{value} through fd 1\n".encode())
            subprocess.run([sys.executable, "-c", f"print({value + ' from a grandchild'!r})"], check=True)
            return "printed"
        if kind == "lines":
            for i in range(value):
                print(f"line {i}")
            return "printed"
        if kind == "print_then_sleep":
            print(value)
            time.sleep(60)
        if kind == "nothing":
            return "quiet"
        raise KeyError(kind)
