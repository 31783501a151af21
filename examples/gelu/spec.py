"""Tanh-approximated GELU over a large fp32 matrix: memory-bound on any GPU."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.gelu(x, approximate="tanh")


batch_size = 8192
dim = 16384


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 4, "dim": 1000},
        "odd": {"batch_size": 3, "dim": 1531},
    },
    "seeds": ["seed.py", "seed_persistent.py"],
}
