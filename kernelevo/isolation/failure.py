"""Why a sandboxed child could not answer: :class:`SandboxFailure` and its :class:`FailureKind`
(raised by :mod:`kernelevo.isolation.sandbox` and the fork server, :mod:`kernelevo.isolation.zygote`)."""

from __future__ import annotations

from enum import StrEnum


class FailureKind(StrEnum):
    """Why a child could not answer."""

    TIMEOUT = "timeout"  # a phase outlasted its limit (the child was killed)
    DIED = "died"  # the process ended: a signal, a crash, an exit
    HANDLER_ERROR = "handler_error"  # its handler raised, or its reply could not be read
    START = "start"  # it never started (the fork server failed, or it did not come up in time)


class SandboxFailure(Exception):
    """The child could not answer: it timed out, died, or its handler raised."""

    def __init__(self, kind: FailureKind, message: str, *, phase: str = "", detail: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.phase = phase
        self.detail = detail


__all__ = ["FailureKind", "SandboxFailure"]
