"""Names that become file names: a spec's name, a hardware type. One rule, and one way to make a path of them.

A name is one *slug*: a letter or digit, then up to 63 letters, digits, ``_``, ``.`` or ``-``
(:data:`NAME_PATTERN`). It cannot hold a separator, start with a dot (no ``..``, no hidden
file), or carry a quote, a newline or a space, so it is safe as one path component, in an HTTP
header and in a generated file. Case is kept: KernelBench's ``1_Square_matrix_multiplication_``
is a valid name as it is.

Names given by a person (the API's ``name``, ``read_spec(name=...)``) are checked and refused
with the rule (:func:`check_name`); names derived from a file stem are made valid
(:func:`slugify`). Rows written before the rule may hold any text: every path is built through
:func:`path_under`, which slugifies each part and refuses a result outside its root.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from kernelevo.spec.errors import SpecError

MAX_LENGTH = 64
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
NAME_RULE = ("a name is a letter or digit followed by at most 63 letters, digits, '_', '.' or '-' "
             "(no spaces, slashes, quotes or newlines)")
_NAME = re.compile(NAME_PATTERN)
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def is_name(text: str) -> bool:
    return _NAME.fullmatch(text) is not None


def check_name(text: str, what: str = "spec name") -> str:
    """``text`` if it is a valid name; else :class:`SpecError` naming the rule."""
    if not is_name(text):
        shown = text if len(text) <= 80 else text[:77] + "..."
        raise SpecError(f"{what} {shown!r} is not allowed: {NAME_RULE}")
    return text


def slugify(text: str, *, fallback: str = "spec") -> str:
    """A valid name made from ``text``: each run of other characters becomes ``_``, a leading
    ``.``/``_``/``-`` goes, and it is cut to 64 characters. A name that is valid already comes back
    unchanged; text that changed gets 6 characters of its hash, so two names that differ only in
    what was replaced stay apart (``a/b`` and ``a b``)."""
    if is_name(text):
        return text
    slug = _UNSAFE.sub("_", text).lstrip("._-")
    tag = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:6]
    slug = (slug[:MAX_LENGTH - 7].rstrip("._-") or fallback) + "-" + tag
    return slug if is_name(slug) else f"{fallback}-{tag}"


def stem_name(stem: str) -> str:
    """A spec's name from a file's stem: the stem if valid, else its slug (without a hash: a file name
    is already unique in its folder, and a person reads it)."""
    if is_name(stem):
        return stem
    slug = _UNSAFE.sub("_", stem).strip("._-")[:MAX_LENGTH].rstrip("._-")
    return slug if is_name(slug) else slugify(stem)


def path_under(root: str | Path, *parts: str) -> Path:
    """``root / part / ...`` with every part made a name (:func:`slugify`), checked to stay under ``root``.

    The parts are names (a spec's, a hardware type's, ``NAME-RUN``), never paths: a part that
    holds a separator or ``..`` is slugified, not followed."""
    base = Path(root)
    target = base.joinpath(*(slugify(p, fallback="x") for p in parts))
    resolved_base, resolved = base.resolve(), target.resolve()
    if resolved != resolved_base and resolved_base not in resolved.parents:
        raise SpecError(f"{target} is outside {base}")  # a symlink under root pointing away
    return target
