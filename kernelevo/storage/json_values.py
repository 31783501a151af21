"""JSON columns' values: written so that every database takes them, read back as the floats they were.

JSON has no Infinity or NaN. Python's ``json.dumps`` writes them anyway, as tokens SQLite stores and
``json.loads`` reads, but PostgreSQL's ``json`` type refuses them: one evaluation whose kernel wrote ``inf``
where the reference was finite (an infinite ``max_abs_error``) failed every commit that held it, until the run
gave up. They are written as the strings ``"Infinity"``, ``"-Infinity"`` and ``"NaN"`` instead, which pydantic
reads back as those floats, and :func:`floats` for the lists read as they are.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

_NAMES = {math.inf: "Infinity", -math.inf: "-Infinity"}


def to_json_text(value: Any) -> str:
    """The engine's JSON serializer: ``json.dumps``, with non-finite floats as strings."""
    try:
        return json.dumps(value, allow_nan=False)
    except ValueError:  # (rare: checked only when there is one, so the common write costs nothing more)
        return json.dumps(_finite(value), allow_nan=False)


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return _NAMES.get(value, "NaN")
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def floats(values: Iterable[Any]) -> list[float]:
    """A stored list of floats as floats (a non-finite one was stored as its name)."""
    return [float(v) for v in values]


__all__ = ["floats", "to_json_text"]
