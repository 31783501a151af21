"""Turning a candidate's exceptions, and its child's deaths and timeouts, into a named reason and a
message a person can act on."""

from __future__ import annotations

import traceback

from kernelevo.isolation.sandbox import FailureKind, SandboxFailure
from kernelevo.records.result import ErrorKind, Stage

MAX_LINES = 30

_CUDA_ERRORS = (
    "illegal memory access",
    "unspecified launch failure",
    "device-side assert",
    "misaligned address",
    "illegal instruction",
    "CUDA error",
    "an illegal",
)


def classify(exc: BaseException, *, compiling: bool = False) -> ErrorKind:
    """The named reason for an exception raised by a candidate's code."""
    text = str(exc)
    name = type(exc).__name__
    lowered = text.lower()
    if (name == "OutOfMemoryError" or isinstance(exc, MemoryError) or "out of memory" in lowered
            or "can't allocate memory" in lowered):
        return ErrorKind.OUT_OF_MEMORY
    if any(marker in text for marker in _CUDA_ERRORS):
        return ErrorKind.CUDA_ERROR
    module = type(exc).__module__ or ""
    if compiling or module.startswith("triton.compiler") or name in {"CompilationError", "CompileTimeAssertionFailure"}:
        return ErrorKind.COMPILE_ERROR
    return ErrorKind.RUNTIME_ERROR


def describe(exc: BaseException, candidate_file: str) -> str:
    """The exception and the candidate's own frames, trimmed to what a person needs."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == candidate_file]
    lines = [f"{type(exc).__name__}: {trim(str(exc))}"]
    if frames:
        lines.append("in the candidate:")
        lines += [f"  line {f.lineno}, in {f.name}: {(f.line or '').strip()}" for f in frames[-5:]]
    return "\n".join(lines)


def trim(text: str, max_lines: int = MAX_LINES) -> str:
    """Compiler output cut to its last ``max_lines`` lines, where the error is."""
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    if len(lines) <= max_lines:
        return "\n".join(lines)
    return "\n".join(["...", *lines[-max_lines:]])


def sandbox_failure_reason(exc: SandboxFailure, stage: Stage) -> tuple[ErrorKind, str]:
    """The named reason for a child that timed out or died."""
    if exc.kind == FailureKind.TIMEOUT:
        if exc.phase in ("compile", "import"):
            what = f"kernel {exc.detail}" if exc.detail else "the candidate"
            return ErrorKind.COMPILE_TIMEOUT, f"compiling {what} took too long: {exc.message}"
        return ErrorKind.TIMEOUT, (
            f"the candidate did not finish: {exc.message} (an infinite loop, a deadlock or far too slow a kernel)"
        )
    if exc.kind == FailureKind.DIED:
        return ErrorKind.CRASHED, f"{exc.message} while in {exc.phase or stage}; its process was discarded"
    if exc.kind == FailureKind.START:
        return ErrorKind.EVALUATOR_ERROR, f"the candidate's child could not start: {exc.message}"
    return ErrorKind.EVALUATOR_ERROR, f"the evaluator's child failed: {exc.message}\n{exc.detail[-2000:]}"
