"""Static checks on a candidate's source: reading the AST, running nothing.

These reject the known exploits of lax harnesses before any code runs: PyTorch fallbacks
in try/except, calls to the reference, torch compute in the host code, side streams,
threads, monkey-patching, file and network access, and dynamic code that could reach
around the other checks. The runtime checks in the candidate's child back them up (an op
recorder, a launch counter, an integrity snapshot), so a check missed here is caught
there.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from kernelevo.evaluation.static.cuda import check_cuda_text
from kernelevo.evaluation.static.finding import Finding
from kernelevo.evaluation.static.rules import LIBRARY_NAMES
from kernelevo.evaluation.static.visitor import SourceChecker
from kernelevo.records.result import LIBRARY_FAMILIES, ErrorKind
from kernelevo.utils.cuda_source import find_cuda


def check_source(
    source: str,
    *,
    language: str = "triton",
    allowed_imports: Iterable[str] = (),
    allowed_torch_ops: Iterable[str] = (),
    allowed_libraries: Iterable[str] = (),
    library: Iterable[str] = LIBRARY_FAMILIES,
) -> list[Finding]:
    """Every static finding against ``source``; an empty list means it may run.

    ``language`` is the spec's: "triton", or "cuda" (CuPy or ``load_inline`` kernels,
    whose C++ is checked by :mod:`kernelevo.evaluation.static.cuda`). ``library``: the
    library families host code may call through torch (the run's policy; empty: pure)."""
    if language not in ("triton", "cuda"):
        return [Finding(ErrorKind.UNSUPPORTED_LANGUAGE, 1, f"language {language!r} is not supported; "
                                                           "use triton or cuda")]
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        return [Finding(ErrorKind.SYNTAX_ERROR, exc.lineno or 0, f"syntax error: {exc.msg}")]
    defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    families = set(library)
    checker = SourceChecker(set(allowed_imports), set(allowed_torch_ops) | defined, language=language,
                            allowed_libraries=set(allowed_libraries), library=families)
    checker.visit(tree)
    checker.finish(tree)
    if language == "cuda":
        cuda = find_cuda(source)
        # ATen's library ops from C++ (torch::matmul) go where the policy lets Python's go
        library_ops = {name for family in families for name in LIBRARY_NAMES[family]}
        checker.findings += [Finding(kind, line, message) for kind, line, message in
                             check_cuda_text(cuda, allowed_libraries=allowed_libraries,
                                             allowed_ops={*allowed_torch_ops, *library_ops})]
        if not cuda.kernels:
            checker.add(ErrorKind.NO_KERNEL, tree, "the candidate defines no __global__ CUDA kernel compiled by "
                                                   "cupy.RawModule / cupy.RawKernel or load_inline")
    return sorted(checker.findings, key=lambda f: f.line)


__all__ = ["Finding", "check_source"]
