"""Exact (erf) GELU over 8192 x 16384 fp32 (KernelBench level 1 26's op): memory-bound, 1 GiB moved."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.gelu(x)


batch_size = 8192
dim = 16384


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 8, "dim": 1000},
        "odd": {"batch_size": 5, "dim": 1531},
    },
}
