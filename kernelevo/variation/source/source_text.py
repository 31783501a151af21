"""Edits spliced into a source's text at its AST's positions, so comments and layout stay."""

from __future__ import annotations

import ast
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

    def span(self, node: ast.expr | ast.stmt | ast.keyword) -> tuple[int, int]:
        """The offsets where a node's text starts and ends."""
        return (self.offset(node.lineno, node.col_offset),
                self.offset(node.end_lineno or node.lineno, node.end_col_offset or 0))

    def keyword_removal(self, kw: ast.keyword) -> tuple[int, int, str]:
        """The edit that takes ``, name=value`` out of a call: from the comma before the keyword to its end
        (a start of -1 where no comma precedes it)."""
        start, end = self.span(kw)
        return self.source.rfind(",", 0, start), end, ""

    def splice(self, edits: list[tuple[int, int, str]]) -> str:
        """The source with each (start, end, text) edit made; edits must not overlap."""
        out = self.source
        for start, end, text in sorted(edits, reverse=True):
            out = out[:start] + text + out[end:]
        return out


__all__ = ["Move", "SourceText"]
