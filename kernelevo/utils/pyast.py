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


def decorator_names(fn: ast.FunctionDef) -> list[str]:
    """The last name of each decorator: ``jit`` for ``@triton.jit`` and ``@triton.jit(...)``."""
    return [(dotted_name(d.func if isinstance(d, ast.Call) else d) or "").split(".")[-1] for d in fn.decorator_list]
