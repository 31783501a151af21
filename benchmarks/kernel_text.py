"""Kernels kept as source text made importable, for the experiments that time them: Triton's JIT reads a
kernel's source from its file, so a family's ``KERNELS`` (as its seeds carry them), with an experiment's own
kernels after it, is written to a file first."""

from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path
from typing import Any


def load_module(path: Path | str, name: str) -> Any:
    """The Python file at ``path``, imported as ``name`` (an archived best.py, say)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def kernels_module(kernels: str, name: str) -> Any:
    """Triton kernels given as source text (they name ``triton`` and ``tl``), as a module."""
    path = Path(tempfile.mkdtemp()) / f"{name}.py"
    path.write_text("import triton\nimport triton.language as tl\n" + kernels)
    return load_module(path, name)


__all__ = ["kernels_module", "load_module"]
