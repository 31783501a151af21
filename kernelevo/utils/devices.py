"""Which device to use, and the environment an isolated child needs for it."""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import torch


@functools.cache
def cuda_present() -> bool:
    """True when torch sees a CUDA GPU (asked once; does not create a CUDA context here)."""
    import torch

    return bool(torch.cuda.is_available())


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
