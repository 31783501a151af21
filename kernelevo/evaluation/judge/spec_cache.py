"""What judging a spec measures once and reuses: baselines and FLOP counts, cached on disk.

Timing the eager and ``torch.compile`` baselines costs 4 to 8 s per judge (``torch.compile``
compiles the reference first), and counting the reference's FLOPs (PyTorch's
``FlopCounterMode``) costs 5 s on a GPU host, where it imports Dynamo. Both depend only on
the spec and the machine, so they are cached under ``<cache dir>/``:

- baselines, keyed by the spec's hash, the variant, the GPU model, the driver, the CUDA,
  torch and Triton versions, the timing method and every option that changes a timing;
  ``--rebaseline`` measures them again and replaces the entry;
- FLOPs of the timed variant, keyed by the spec's hash, the variant and torch's version.

The evaluator reads and writes this cache, never the judge: the judge executes the spec,
which is untrusted code, and must not be able to plant numbers for another spec.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import logging
import os
import tempfile
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from kernelevo.records.options import EvalOptions
from kernelevo.records.result import Environment, Timing
from kernelevo.spec.spec import Spec
from kernelevo.utils.paths import cache_dir

log = logging.getLogger(__name__)

# Bump when the timing method changes what a baseline measures: older entries are then never read.
TIMING_METHOD = "events+launch-cover+l2-flush-bracket/3"
_BASELINES = TypeAdapter(dict[str, Timing | str])
_FLOPS = TypeAdapter(int)


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


def flops_key(spec: Spec, variant: str) -> dict[str, Any]:
    """Everything a FLOP count depends on (torch's version, read without importing torch)."""
    try:
        torch_version = importlib.metadata.version("torch")
    except importlib.metadata.PackageNotFoundError:
        torch_version = "unknown"
    return {"spec_sha256": spec.sha256, "variant": variant, "torch": torch_version}


def load_baselines(key: dict[str, Any], *, root: Path | None = None) -> dict[str, Timing | str] | None:
    """The cached baselines for ``key``, or None (never cached, or unreadable)."""
    return _load("baselines", key, _BASELINES, root)


def store_baselines(key: dict[str, Any], baselines: dict[str, Timing | str], *, root: Path | None = None) -> None:
    _store("baselines", key, _BASELINES.dump_python(baselines, mode="json"), root)


def load_flops(key: dict[str, Any], *, root: Path | None = None) -> int | None:
    return _load("flops", key, _FLOPS, root)


def store_flops(key: dict[str, Any], flops: int, *, root: Path | None = None) -> None:
    _store("flops", key, flops, root)


def _path(kind: str, key: dict[str, Any], root: Path | None) -> Path:
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:32]
    return (root or cache_dir()) / kind / f"{digest}.json"


def _load(kind: str, key: dict[str, Any], adapter: TypeAdapter[Any], root: Path | None) -> Any:
    try:
        entry = json.loads(_path(kind, key, root).read_text())
        if entry.get("key") != key:  # a hash collision, or an edited file
            return None
        return adapter.validate_python(entry["value"])
    except (OSError, ValueError, KeyError, ValidationError):
        return None


def _store(kind: str, key: dict[str, Any], value: Any, root: Path | None) -> None:
    """Write the entry atomically; a cache that cannot be written is only logged."""
    path = _path(kind, key, root)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp") as tmp:
            json.dump({"key": key, "value": value}, tmp, indent=1)
        os.replace(tmp.name, path)
    except OSError as exc:
        log.warning("could not cache %s in %s: %s", kind, path, exc)
