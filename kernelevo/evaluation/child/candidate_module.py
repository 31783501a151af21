"""A candidate's source executed as a module, in the sandbox child that runs it.

The candidate child, the precompiler and the ahead-of-time compiler each execute the source
the same way: written to ``candidate.py`` in the child's scratch directory (so tracebacks
and Triton's error messages name its lines) and registered as one module name; and, just
before, the child's writes are narrowed to its scratch folder and this candidate's own caches
(:func:`kernelevo.isolation.containment.confine_candidate`).
"""

from __future__ import annotations

import sys
import types
from pathlib import Path

from kernelevo.isolation.containment import confine_candidate

CANDIDATE_MODULE = "kernelevo_candidate"


def candidate_path() -> str:
    """Where :func:`exec_candidate` writes the source: the working directory, a sandbox's scratch."""
    return str(Path.cwd() / "candidate.py")


def exec_candidate(source: str) -> types.ModuleType:
    """Execute ``source`` as the candidate's module; whatever it raises propagates."""
    path = candidate_path()
    Path(path).write_text(source)
    confine_candidate()
    module = types.ModuleType(CANDIDATE_MODULE)
    module.__file__ = path
    sys.modules[CANDIDATE_MODULE] = module
    exec(compile(source, path, "exec"), module.__dict__)
    return module
