"""What a sandboxed child leaves behind for people: the end of its output, and how it exited."""

from __future__ import annotations

import os
import signal
from pathlib import Path


def read_end(path: Path, max_bytes: int) -> tuple[bytes, int]:
    """The last ``max_bytes`` of ``path``, and its size; nothing when it cannot be read (never written, removed)."""
    try:
        with path.open("rb") as file:
            size = file.seek(0, os.SEEK_END)
            file.seek(max(0, size - max_bytes))
            return file.read(max_bytes), size
    except OSError:
        return b"", 0


def tail_text(end: bytes, size: int, max_bytes: int) -> str:
    """The last ``max_bytes`` of an output of ``size`` bytes that ends with ``end``, as text.

    When cut, a partial first line is left out (unless the tail is all one line), after a line
    that says how much came before.
    """
    tail = end[-max_bytes:]
    if len(tail) >= size:
        return tail.decode(errors="replace")
    cut_inside_a_line = end[-len(tail) - 1:-len(tail)] != b"\n"  # the byte before the tail, when known
    newline = tail.find(b"\n")
    if cut_inside_a_line and 0 <= newline < len(tail) - 1:
        tail = tail[newline + 1:]
    return f"[... {size - len(tail)} bytes earlier]\n" + tail.decode(errors="replace")


def describe_exit(code: int | None) -> str:
    """A returncode as a person reads it: 'exit status 3', 'killed by SIGSEGV'."""
    if code is None:
        return "exit status unknown"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"
