"""Compile the CUDA C++ inside a candidate module for sm_90, without a GPU and without running it.

The evaluator's own path does the work: :func:`kernelevo.utils.cuda_source.find_cuda` finds
the units in the AST, :func:`kernelevo.evaluation.child.cuda_build.compile_unit` compiles each with
the nvcc on the PATH (``load_inline`` units with torch's headers and, for the math-library
headers a compiler-only toolkit lacks, the evaluator's stand-ins). What this adds is when a
unit cannot be compiled here at all: one that includes a math library's header itself (the
cuBLAS and cuDNN attacks) needs the real header, which the stand-ins cannot replace.
"""

from __future__ import annotations

import re
from pathlib import Path

from kernelevo.evaluation.child.cuda_build import nvcc
from kernelevo.utils.cuda_source import CudaUnit

# math libraries' headers a unit may include itself; the CUDA compiler's toolkit may lack them
LIBRARY_HEADERS = ("cublas_v2.h", "cublasLt.h", "cusparse.h", "cusolverDn.h", "cudnn.h")
GET_FUNCTION = re.compile(r"""get_function\(\s*[rbuf]*["'](\w+)""")

__all__ = ["cannot_compile_here", "get_function_names", "nvcc"]


def get_function_names(source: str) -> list[str]:
    """The kernel names a candidate asks CuPy for with ``.get_function("...")``."""
    return GET_FUNCTION.findall(source)


def cannot_compile_here(unit: CudaUnit) -> str | None:
    """Why ``unit`` cannot be compiled on this machine (a library header it includes is missing), or None."""
    compiler = nvcc()
    if compiler is None:
        return "nvcc is not on the PATH"
    toolkit = Path(compiler).resolve().parent.parent
    roots = [toolkit / "include", *toolkit.glob("targets/*/include")]
    wanted = [h for h in LIBRARY_HEADERS if f"<{h}>" in unit.code or f'"{h}"' in unit.code]
    missing = [h for h in wanted if not any((root / h).is_file() for root in roots)]
    return f"the CUDA toolkit here lacks {', '.join(missing)}, which the unit includes itself" if missing else None
