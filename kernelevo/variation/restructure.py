"""Structural moves on Triton kernels that keep what they compute: new cells without an LLM.

The template operator's parameter moves keep a kernel's structure, so an offline archive
seeded with one kernel stays in one cell. These moves change the structure and nothing the
kernel computes:

- **pipelining**: a loop over ``range(...)`` that loads becomes ``tl.range(..., num_stages=S)``,
  so Triton overlaps the next iterations' loads with this one's work (memory level 3 of
  :mod:`kernelevo.archive.descriptors`); a ``tl.range`` without stages gets them;
- **eviction hints**: a kernel's ``tl.load``s without a policy get one, ``evict_first`` for
  a pointer read once (streamed: keep it out of L2's way) and ``evict_last`` for one read
  in several places (keep it for the next read); a kernel whose loads all carry hints loses
  them.

Each move edits the source text in place (comments and layout kept), and a move that does
not apply is not offered.
"""

from __future__ import annotations

import ast
import functools
import random
from collections.abc import Callable
from dataclasses import dataclass

from kernelevo.utils.pyast import decorator_names, dotted_name

STAGES = (2, 3, 4)


@dataclass(frozen=True)
class Move:
    label: str
    apply: Callable[[], str]


class _Text:
    """Offsets of a source's (line, column) positions, and edits spliced at them."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.starts = [0]
        for line in source.splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(line))

    def at(self, line: int, col: int) -> int:
        # ast columns count UTF-8 bytes; kernels are ASCII in practice, and a mismatch only misplaces an edit
        return self.starts[line - 1] + col

    def splice(self, edits: list[tuple[int, int, str]]) -> str:
        out = self.source
        for start, end, text in sorted(edits, reverse=True):
            out = out[:start] + text + out[end:]
        return out


def _kernels(tree: ast.Module) -> list[ast.FunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and "jit" in decorator_names(n)]


def _binds_tl(tree: ast.Module) -> bool:
    return any(isinstance(n, ast.Import) and any(a.name == "triton.language" and a.asname == "tl" for a in n.names)
               for n in tree.body)


def _loads(node: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Call) and (dotted_name(n.func) or "") == "tl.load"]


def _before_close(text: _Text, call: ast.Call) -> int:
    """The offset of a call's closing parenthesis."""
    end = text.at(call.end_lineno or call.lineno, call.end_col_offset or 0)
    return text.source.rindex(")", 0, end)


def _pipelining(text: _Text, kernel: ast.FunctionDef) -> list[Move]:
    moves = []
    for loop in (n for n in ast.walk(kernel) if isinstance(n, ast.For)):
        it = loop.iter
        if not (isinstance(it, ast.Call) and _loads(loop)):
            continue
        name = dotted_name(it.func) or ""
        keywords = {kw.arg for kw in it.keywords}
        if name not in ("range", "tl.range") or keywords & {"num_stages", "warp_specialize"}:
            continue
        close = _before_close(text, it)
        for stages in STAGES:
            edits = [(close, close, f", num_stages={stages}")]
            if name == "range":
                start = text.at(it.func.lineno, it.func.col_offset)
                edits.append((start, start + len("range"), "tl.range"))
            moves.append(Move(f"{kernel.name}: loop at line {loop.lineno} pipelined over {stages} stages",
                              functools.partial(text.splice, edits)))
    return moves


def _eviction(text: _Text, kernel: ast.FunctionDef) -> list[Move]:
    loads = _loads(kernel)
    if not loads:
        return []
    hinted = [call for call in loads if any(kw.arg == "eviction_policy" for kw in call.keywords)]
    if len(hinted) == len(loads):
        edits = []
        for call in loads:
            kw = next(k for k in call.keywords if k.arg == "eviction_policy")
            # from the comma before the keyword to the keyword's end
            start = text.source.rindex(",", 0, text.at(kw.lineno, kw.col_offset))
            edits.append((start, text.at(kw.end_lineno or kw.lineno, kw.end_col_offset or 0), ""))
        return [Move(f"{kernel.name}: eviction hints dropped", functools.partial(text.splice, edits))]
    if hinted:
        return []  # hints chosen by hand for some loads: leave them to the author

    def pointer(call: ast.Call) -> str:
        names = [n.id for n in ast.walk(call.args[0]) if isinstance(n, ast.Name)] if call.args else []
        return names[0] if names else ""

    reads: dict[str, int] = {}
    for call in loads:
        reads[pointer(call)] = reads.get(pointer(call), 0) + 1
    edits = []
    for call in loads:
        policy = "evict_last" if reads[pointer(call)] > 1 else "evict_first"
        close = _before_close(text, call)
        edits.append((close, close, f", eviction_policy={policy!r}"))
    return [Move(f"{kernel.name}: eviction hints (streamed loads evict_first, reread ones evict_last)",
                 functools.partial(text.splice, edits))]


def moves(source: str) -> list[Move]:
    """The structural moves ``source`` allows; none for CUDA or a source that does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    if not _binds_tl(tree):
        return []
    text = _Text(source)
    found: list[Move] = []
    for kernel in _kernels(tree):
        found += _pipelining(text, kernel) + _eviction(text, kernel)
    return found


def restructure(source: str, rng: random.Random) -> tuple[str, str] | None:
    """``source`` with one structural move applied, and its label; None when none applies."""
    available = moves(source)
    if not available:
        return None
    move = rng.choice(available)
    return move.apply(), move.label


__all__ = ["Move", "moves", "restructure"]
