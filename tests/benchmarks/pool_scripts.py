"""Running a benchmark script as the lead runs it on a GPU host: a subprocess, here with CPU judges."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"
GELU = str(ROOT / "examples" / "gelu" / "spec.py")


def load(name: str) -> ModuleType:
    """A benchmark script imported as a module (its ``main`` not run)."""
    sys.path.insert(0, str(BENCHMARKS))  # the scripts import their helpers (pool_runs, mutants) by name
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_script(name: str, *args: str, out: Path, timeout: float = 240) -> dict[str, Any]:
    """Run ``benchmarks/NAME.py ARGS --out OUT`` with this checkout first on the path; its JSON report."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p),
           "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    env.pop("RAY_ADDRESS", None)  # each script starts a local Ray of its own
    done = subprocess.run([sys.executable, str(BENCHMARKS / f"{name}.py"), *args, "--out", str(out)],
                          capture_output=True, text=True, env=env, timeout=timeout, cwd=ROOT)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    report: dict[str, Any] = json.loads(out.read_text())
    return report
