"""The CUDA C++ inside a candidate's Python module, found by reading its AST (never running it).

A CUDA candidate (DESIGN.md, Formats) is a Python module whose ``ModelNew`` launches
``__global__`` kernels it compiles itself, in one of two forms:

- ``cupy``: ``cupy.RawModule(code=SOURCE)`` / ``cupy.RawKernel(SOURCE, "name")``, compiled
  by NVRTC and launched on torch tensors;
- ``load_inline``: KernelBench's ``torch.utils.cpp_extension.load_inline(name=...,
  cpp_sources=..., cuda_sources=..., functions=[...])``, built by nvcc.

The sources are string literals, names bound to string literals, or ``+`` joins of them
(the way people and LLMs write them). Anything computed at run time (an f-string, a
file read) is not seen here; the runtime checks still see what it launches.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from kernelevo.utils.pyast import dotted_name

GLOBAL_FUNCTION = re.compile(r"__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?(?:[\w:<>,\s\*&]+?\s+)?"
                             r"(?:__launch_bounds__\s*\([^)]*\)\s*)?(\w+)\s*\(")
_LINE_COMMENT = re.compile(r"//[^\n]*")
_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)


@dataclass
class CudaUnit:
    """One piece of CUDA C++ that gets compiled: a RawModule's code or a load_inline extension."""

    form: str  # "cupy" or "load_inline"
    code: str  # device code (cuda_sources for load_inline)
    host_code: str = ""  # load_inline's cpp_sources (declarations and bindings)
    name: str = ""  # load_inline's extension name
    options: tuple[str, ...] = ()  # compiler options written as literals
    line: int = 0

    @property
    def kernels(self) -> list[str]:
        return kernel_names(self.code)


@dataclass
class CudaSource:
    """Everything CUDA in one candidate module."""

    units: list[CudaUnit] = field(default_factory=list)
    # __global__ code that no recognised call compiles (a string built elsewhere): kept for
    # the static checks and descriptors, which read all the candidate's CUDA text.
    loose: list[str] = field(default_factory=list)

    @property
    def forms(self) -> set[str]:
        return {u.form for u in self.units}

    @property
    def kernels(self) -> list[str]:
        names = [k for u in self.units for k in u.kernels] + [k for s in self.loose for k in kernel_names(s)]
        return list(dict.fromkeys(names))

    @property
    def text(self) -> str:
        """All CUDA C++ text, device and host, joined: what text checks and descriptors read."""
        parts = [p for u in self.units for p in (u.code, u.host_code) if p] + self.loose
        return "\n".join(parts)


def strip_comments(code: str) -> str:
    return _LINE_COMMENT.sub("", _BLOCK_COMMENT.sub("", code))


def kernel_names(code: str) -> list[str]:
    """Names of the ``__global__`` functions defined in ``code``."""
    return list(dict.fromkeys(GLOBAL_FUNCTION.findall(strip_comments(code))))


def is_cuda_source(source: str) -> bool:
    """Whether a candidate carries CUDA C++ (a ``__global__`` function in a string)."""
    return "__global__" in source and bool(find_cuda(source).kernels)


class _Strings:
    """Module-level (and class-level) names bound to string values the AST can evaluate."""

    def __init__(self, tree: ast.Module) -> None:
        self.values: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                value = self.value(node.value)
                if value is not None:
                    self.values[node.targets[0].id] = value
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                value = self.value(node.value)
                if value is not None:
                    self.values[node.target.id] = value

    def value(self, node: ast.AST | None) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            return self.values.get(node.id)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.value(node.left), self.value(node.right)
            return left + right if left is not None and right is not None else None
        if isinstance(node, ast.List | ast.Tuple):  # cuda_sources=[SRC]: joined
            parts = [self.value(e) for e in node.elts]
            return "\n".join(p for p in parts if p is not None) if parts and None not in parts else None
        return None

    def strings(self, node: ast.AST | None) -> tuple[str, ...]:
        if isinstance(node, ast.List | ast.Tuple):
            found = [self.value(e) for e in node.elts]
            return tuple(s for s in found if s is not None)
        return ()


def _keyword(call: ast.Call, name: str, position: int | None = None) -> ast.AST | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    if position is not None and len(call.args) > position:
        return call.args[position]
    return None


def find_cuda(source: str) -> CudaSource:
    """The CUDA units of ``source``; an empty :class:`CudaSource` if it does not parse or has none."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return CudaSource()
    strings = _Strings(tree)
    found = CudaSource()
    compiled: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        last = (dotted_name(node.func) or "").split(".")[-1]
        if last in {"RawModule", "RawKernel"}:
            code = strings.value(_keyword(node, "code", 0))
            if code is None:
                continue
            options = strings.strings(_keyword(node, "options", 2 if last == "RawKernel" else 1))
            found.units.append(CudaUnit("cupy", code, options=options, line=node.lineno))
            compiled.add(code)
        elif last == "load_inline":
            code = strings.value(_keyword(node, "cuda_sources", 2)) or ""
            host = strings.value(_keyword(node, "cpp_sources", 1)) or ""
            name = strings.value(_keyword(node, "name", 0)) or ""
            options = strings.strings(_keyword(node, "extra_cuda_cflags"))
            found.units.append(CudaUnit("load_inline", code, host, name, options, node.lineno))
            compiled.update({code, host})
    for value in strings.values.values():
        if "__global__" in value and value not in compiled and not any(value in c for c in compiled):
            found.loose.append(value)
    return found
