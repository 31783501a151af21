"""Code the operators without an LLM leave alone: lines marked ``# kernelevo: keep``.

A comment ``# kernelevo: keep`` on a line keeps that line's literals out of the template
operator's reach; on a ``def`` line it keeps the whole function, and the structural moves
leave a kernel so marked alone as well. Seeds from torch.compile mark the kernels and
launches that serve only the sizes the timing never uses (a spec's small and odd
variants): tuning them could change no timing, and a search spent half its template draws
there on a seed with one such fallback.
"""

from __future__ import annotations

import ast
import functools
import io
import tokenize

MARK = "kernelevo: keep"
COMMENT = f"  # {MARK}"


@functools.lru_cache(maxsize=256)  # asked for each source the operators read, and a parent is read often
def kept_lines(source: str) -> frozenset[int]:
    """The 1-based lines whose code the operators keep as it is."""
    marked = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT and MARK in token.string:
                marked.add(token.start[0])
    except (tokenize.TokenError, SyntaxError):
        return frozenset()
    if not marked:
        return frozenset()
    lines = set(marked)
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return frozenset(lines)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and marked & _signature(node):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return frozenset(lines)


def _signature(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[int]:
    """The lines from ``def`` to the line before the body (a signature may span several)."""
    return set(range(node.lineno, max(node.lineno, node.body[0].lineno - 1) + 1))


def is_kept(source: str, node: ast.FunctionDef) -> bool:
    """Whether a function of ``source`` is marked to be kept."""
    return node.lineno in kept_lines(source)


__all__ = ["COMMENT", "MARK", "is_kept", "kept_lines"]
