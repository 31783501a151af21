"""Edits spliced into a source's text at its AST's positions, so comments and layout stay."""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Move:
    """A change to a source that the operators may make, named for the candidate's note."""

    label: str
    apply: Callable[[], str]


class SourceText:
    """Converts between the AST's (line, UTF-8 column) and offsets in the source string."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.starts = [0]
        for line in source.splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(line))

    def offset(self, line: int, col: int) -> int:
        start = self.starts[line - 1]
        row = self.source[start:self.starts[line]].encode()
        return start + len(row[:col].decode(errors="ignore"))

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset) - 1
        return line + 1, len(self.source[self.starts[line]:offset].encode())

    def splice(self, edits: list[tuple[int, int, str]]) -> str:
        """The source with each (start, end, text) edit made; edits must not overlap."""
        out = self.source
        for start, end, text in sorted(edits, reverse=True):
            out = out[:start] + text + out[end:]
        return out


__all__ = ["Move", "SourceText"]
