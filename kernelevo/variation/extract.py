"""Getting a kernel out of an LLM's reply: a whole module, or SEARCH/REPLACE edits to a parent.

Replies are messy: prose around the code, several code blocks, a block without a language
tag, edits whose whitespace drifted. These functions take what is there when it is
unambiguous and otherwise raise :class:`UnusableReply` with the reason, which the
search records as a failure of that call (never a crash).
"""

from __future__ import annotations

import ast
import re

FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n(.*?)```", re.DOTALL)
DIFF_BLOCK = re.compile(r"<{5,}\s*SEARCH\s*\n(.*?)\n?={5,}\s*\n(.*?)\n?>{5,}\s*REPLACE", re.DOTALL)


class UnusableReply(ValueError):
    """The reply holds no usable kernel; the message says why."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def _parses(code: str) -> bool:
    try:
        ast.parse(code)
    except SyntaxError:
        return False
    return True


def extract_module(reply: str) -> str:
    """The Python module in ``reply`` that defines ``ModelNew``."""
    blocks = [body for lang, body in FENCE.findall(reply) if lang.lower() in ("", "python", "py", "python3")]
    with_model = [b for b in blocks if "class ModelNew" in b]
    if with_model:
        # the last complete version: models often refine an answer within one reply
        for block in reversed(with_model):
            if _parses(block):
                return block.strip() + "\n"
        raise UnusableReply("unusable_reply", "the code block defining ModelNew is not valid Python")
    if not blocks and "class ModelNew" in reply and _parses(reply):
        return reply.strip() + "\n"  # bare code, no fences
    if "```" in reply and not reply.count("```") % 2 == 0:
        raise UnusableReply("unusable_reply", "the reply was cut off inside a code block (max_tokens too small?)")
    raise UnusableReply("unusable_reply", "the reply contains no Python code block defining class ModelNew")


def apply_edits(source: str, reply: str) -> tuple[str, int]:
    """``source`` with every SEARCH/REPLACE block of ``reply`` applied; returns (new source, blocks)."""
    blocks = DIFF_BLOCK.findall(reply)
    if not blocks:
        raise UnusableReply("unusable_reply", "the reply contains no SEARCH/REPLACE block")
    for i, (search, replace) in enumerate(blocks, 1):
        source = _replace_once(source, search, replace, i)
    if not _parses(source):
        raise UnusableReply("diff_failed", "the edited source is not valid Python")
    return source, len(blocks)


def _replace_once(source: str, search: str, replace: str, number: int) -> str:
    if search and source.count(search) == 1:
        return source.replace(search, replace, 1)
    if search and source.count(search) > 1:
        raise UnusableReply("diff_failed", f"SEARCH block {number} matches {source.count(search)} places; "
                                           "it must match exactly one")
    # whitespace drift: match line by line ignoring trailing space and a common indent shift
    want = [line.strip() for line in search.strip("\n").splitlines()]
    lines = source.splitlines(keepends=True)
    hits = [i for i in range(len(lines) - len(want) + 1)
            if [ln.strip() for ln in lines[i:i + len(want)]] == want]
    if len(hits) != 1:
        what = "matches nothing" if not hits else f"matches {len(hits)} places"
        raise UnusableReply("diff_failed", f"SEARCH block {number} {what} in the parent kernel")
    start = hits[0]
    old_indent = _indent(lines[start])
    new_indent = _indent(search.strip("\n").splitlines()[0]) if search.strip() else ""
    shifted = [_reindent(line, new_indent, old_indent) for line in replace.strip("\n").splitlines()]
    return "".join(lines[:start]) + "\n".join(shifted) + "\n" + "".join(lines[start + len(want):])


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _reindent(line: str, written: str, actual: str) -> str:
    return actual + line[len(written):] if line.startswith(written) else line
