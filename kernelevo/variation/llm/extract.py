"""Getting a kernel out of an LLM's reply: a whole module, or SEARCH/REPLACE edits to a parent.

Replies are messy: prose around the code, several code blocks, a block without a language
tag, edits whose whitespace drifted. These functions take what is there when it is
unambiguous and otherwise raise :class:`UnusableReply` with the reason, which the
search records as a failure of that call (never a crash).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

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
        raise UnusableReply("unusable_reply", "the reply was cut off inside a code block: raise --max-tokens "
                                              "(or max_tokens in the config)")
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
    """Replace the one run of whole lines matching ``search``: exactly, or up to indentation."""
    want = search.strip("\n").splitlines()
    if not want:
        raise UnusableReply("diff_failed", f"SEARCH block {number} is empty")
    lines = source.splitlines(keepends=True)
    span = len(want)

    def hits(norm: Callable[[str], str]) -> list[int]:
        target = [norm(w) for w in want]
        return [i for i in range(len(lines) - span + 1) if [norm(ln) for ln in lines[i:i + span]] == target]

    exact = hits(str.rstrip)
    found = exact or hits(str.strip)
    if len(found) != 1:
        what = "matches nothing" if not found else f"matches {len(found)} places; it must match exactly one"
        raise UnusableReply("diff_failed", f"SEARCH block {number} {what} in the parent kernel")
    start = found[0]
    new = replace.strip("\n").splitlines()
    if not exact:  # the model's indentation drifted: shift its replacement to the parent's
        new = [_reindent(line, _indent(want[0]), _indent(lines[start])) for line in new]
    return "".join(lines[:start]) + "".join(line + "\n" for line in new) + "".join(lines[start + span:])


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _reindent(line: str, written: str, actual: str) -> str:
    return actual + line[len(written):] if line.startswith(written) else line
