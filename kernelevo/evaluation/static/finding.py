"""One reason a static check rejects a source."""

from __future__ import annotations

from dataclasses import dataclass

from kernelevo.records.result import ErrorKind


@dataclass(frozen=True)
class Finding:
    """One reason the source is rejected."""

    kind: ErrorKind
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


__all__ = ["Finding"]
