"""Eager and ``torch.compile`` timings of a spec, cached on disk across evaluations.

Timing the baselines costs 4 to 8 s per judge (``torch.compile`` compiles the reference
first), every ``kernelevo eval`` and every search start. They depend only on the spec, the
variant timed, the GPU and the software, so they are cached under
``<cache dir>/baselines/`` keyed by the spec's hash, the variant, the GPU model, the
driver, the CUDA, torch and Triton versions, the timing method and every option that
changes a timing. ``--rebaseline`` measures them again and replaces the entry.

The evaluator reads and writes this cache, never the judge: the judge executes the spec,
which is untrusted code, and must not be able to plant timings for another spec.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from kernelevo.evaluation.options import EvalOptions
from kernelevo.evaluation.result import Environment, Timing
from kernelevo.spec.spec import Spec
from kernelevo.utils.paths import cache_dir

log = logging.getLogger(__name__)

# Bump when the timing method changes what a baseline measures: older entries are then never read.
TIMING_METHOD = "events+launch-cover+l2-flush/2"
_BASELINES = TypeAdapter(dict[str, Timing | str])


def baseline_key(spec: Spec, variant: str, environment: Environment, options: EvalOptions,
                 timing_sets: int) -> dict[str, Any]:
    """Everything a cached baseline depends on."""
    return {
        "spec_sha256": spec.sha256, "variant": variant,
        "device_name": environment.device_name, "compute_capability": environment.compute_capability,
        "driver": environment.driver, "cuda": environment.cuda, "torch": environment.torch,
        "triton": environment.triton, "method": TIMING_METHOD, "timing_sets": timing_sets,
        "baselines": options.baseline_names(gpu=True),
        "timing": options.model_dump(include={"warmup_reps", "warmup_ms", "min_reps", "min_measure_ms", "max_reps",
                                              "timing_budget_ms", "target_rel_iqr"}),
    }


def _path(key: dict[str, Any], root: Path | None) -> Path:
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:32]
    return (root or cache_dir()) / "baselines" / f"{digest}.json"


def load_baselines(key: dict[str, Any], *, root: Path | None = None) -> dict[str, Timing | str] | None:
    """The cached baselines for ``key``, or None (never cached, or unreadable)."""
    path = _path(key, root)
    try:
        entry = json.loads(path.read_text())
        if entry.get("key") != key:  # a hash collision, or an edited file
            return None
        return _BASELINES.validate_python(entry["baselines"])
    except (OSError, ValueError, KeyError, ValidationError):
        return None


def store_baselines(key: dict[str, Any], baselines: dict[str, Timing | str], *, root: Path | None = None) -> None:
    """Write the entry atomically; a cache that cannot be written is only logged."""
    path = _path(key, root)
    entry = {"key": key, "baselines": _BASELINES.dump_python(baselines, mode="json")}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp") as tmp:
            json.dump(entry, tmp, indent=1)
        os.replace(tmp.name, path)
    except OSError as exc:
        log.warning("could not cache the baselines in %s: %s", path, exc)
