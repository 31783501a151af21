"""Which device to use, and the environment an isolated child needs for it."""

from __future__ import annotations

import functools
import glob
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import torch


@functools.cache
def cuda_present() -> bool:
    """True when this process can use an NVIDIA GPU through torch; decided without importing torch.

    Importing torch takes 4 to 7 s on a GPU host (its CUDA libraries load), and the process
    that asks (the command line, the search loop, a Ray actor) never runs a kernel: its
    judge does. So: NVIDIA device files, ``CUDA_VISIBLE_DEVICES`` not hiding them all, and
    a torch built for CUDA (read from torch's ``version.py``, not imported).
    """
    if not glob.glob("/dev/nvidia[0-9]*"):
        return False
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None and visible.strip() in ("", "-1"):
        return False
    return _torch_cuda_version() is not None


def visible_gpus() -> int:
    """GPUs this process may use, counted without importing torch (0 where torch can use none)."""
    if not cuda_present():
        return 0
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        return len([d for d in visible.split(",") if d.strip()])
    return len(glob.glob("/dev/nvidia[0-9]*"))


def _torch_cuda_version() -> str | None:
    """The CUDA version torch was built for (``torch/version.py``), without importing torch."""
    import importlib.util
    import re
    from pathlib import Path

    found = importlib.util.find_spec("torch")
    if found is None or not found.submodule_search_locations:
        return None
    try:
        text = (Path(next(iter(found.submodule_search_locations))) / "version.py").read_text()
    except OSError:
        return None
    match = re.search(r"^cuda\b[^=]*=\s*['\"]([^'\"]+)['\"]", text, flags=re.M)
    return match.group(1) if match else None


@functools.cache
def cores_per_gpu() -> int:
    """CPU cores this process may use, shared among the GPUs of this host (all of them without a GPU).

    Sizes the CPU-side work a GPU evaluator keeps going: spare children, kernels compiling
    ahead. Counts the GPU device files, not ``CUDA_VISIBLE_DEVICES``: a Ray actor sees one
    GPU of the several whose evaluators share the host's cores. Where every GPU's device file
    is visible but only some GPUs are allotted (Slurm's device cgroups), or the CPU limit is a
    cgroup v1 quota (not read), this undercounts; the options then set the sizes explicitly.
    """
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    cores = min(cores, _cgroup_cpu_quota() or cores)
    gpus = len(glob.glob("/dev/nvidia[0-9]*"))
    return max(1, cores // max(1, gpus))


def _cgroup_cpu_quota() -> int | None:
    """The container's CPU limit (cgroup v2 ``cpu.max``), rounded down; None when unlimited."""
    try:
        with open("/sys/fs/cgroup/cpu.max") as limits:
            quota, period = limits.read().split()[:2]
    except (OSError, ValueError):
        return None
    return None if quota == "max" else max(1, int(quota) // int(period))


def pick_device(name: str = "auto") -> torch.device:
    """``auto`` → the first CUDA device when present, else the CPU."""
    import torch

    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise RuntimeError("a CUDA device was asked for, but torch sees none")
    device = torch.device(name)
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", torch.cuda.current_device())
    return device


def sandbox_env(*, gpu: bool) -> dict[str, str]:
    """Environment for a child: Triton's interpreter without a GPU, quiet Triton defaults."""
    env = {
        # Keep Triton 3.9's current default (fusion on) and silence its warning about the change.
        "TRITON_DEFAULT_FP_FUSION": os.environ.get("TRITON_DEFAULT_FP_FUSION", "1"),
        "TRITON_INTERPRET": "0" if gpu else "1",
    }
    return env
