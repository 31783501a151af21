"""The MAP-Elites archive: descriptors place a kernel in a cell, the elites archive adds it and returns
what it did (:class:`~kernelevo.records.elite.AddOutcome`).

The names below load on first use (PEP 562): the judge imports :mod:`kernelevo.archive.descriptors`
alone, and importing it must not load pyribs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kernelevo.archive.descriptors import Descriptor, descriptor_set, measure
    from kernelevo.archive.elites import AddOutcome, ElitesArchive

_HOMES = {"AddOutcome": "elites", "Descriptor": "descriptors", "ElitesArchive": "elites",
          "descriptor_set": "descriptors", "measure": "descriptors"}

__all__ = ["AddOutcome", "Descriptor", "ElitesArchive", "descriptor_set", "measure"]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'kernelevo.archive' has no attribute {name!r}")
    return getattr(importlib.import_module(f"kernelevo.archive.{_HOMES[name]}"), name)
