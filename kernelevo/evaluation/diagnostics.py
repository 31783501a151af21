"""Turning a candidate's exceptions into a named reason and a message a person can act on."""

from __future__ import annotations

import traceback

from kernelevo.records.result import ErrorKind

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
