"""Small helpers for reading Python source as an AST (never running it)."""

from __future__ import annotations

import ast


def dotted_name(node: ast.AST) -> str | None:
    """'torch.nn.functional.gelu' for an attribute chain that starts at a name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def launched_kernel(node: ast.AST) -> str | None:
    """The kernel a launch ``kernel[grid](...)`` (or ``module.kernel[grid](...)``) names; None for any other node."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Subscript):
        return (dotted_name(node.func.value) or "").split(".")[-1] or None
    return None


def decorator_names(fn: ast.FunctionDef) -> list[str]:
    """The last name of each decorator: ``jit`` for ``@triton.jit`` and ``@triton.jit(...)``."""
    return [(dotted_name(d.func if isinstance(d, ast.Call) else d) or "").split(".")[-1] for d in fn.decorator_list]


def is_constexpr(arg: ast.arg) -> bool:
    """Whether a kernel parameter is annotated ``tl.constexpr`` (however ``triton.language`` is named)."""
    return arg.annotation is not None and "constexpr" in ast.unparse(arg.annotation)


def program_id_axis(call: ast.Call) -> object:
    """The axis a ``tl.program_id(...)`` call names, positionally or as ``axis=``; None when not a literal."""
    if call.args:
        return call.args[0].value if isinstance(call.args[0], ast.Constant) else None
    axis = next((kw.value for kw in call.keywords if kw.arg == "axis"), None)
    return axis.value if isinstance(axis, ast.Constant) else None
