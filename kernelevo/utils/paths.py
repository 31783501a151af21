"""Where kernelevo keeps files that outlive a process: the user's cache directory."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """``$KERNELEVO_CACHE_DIR``, else ``$XDG_CACHE_HOME/kernelevo``, else ``~/.cache/kernelevo``."""
    explicit = os.environ.get("KERNELEVO_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "kernelevo"
