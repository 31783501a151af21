"""Cumulative sum along rows of 3 x 4500 fp32 of only the elements a bool mask keeps; rows of three chunks.

Tests only: sizes the CPU interpreter runs in seconds."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(x * mask, dim=1)


batch_size = 3
dim = 4500


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randint(0, 2, (batch_size, dim)).bool()]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    # a running sum of up to 16384 floats: any order but eager's own differs by ~1e-3 (as cumsum_rows)
    "atol": 1e-2,
    "rtol": 1e-3,
    "variants": {
        "small": {"batch_size": 8, "dim": 1000},
        "odd": {"batch_size": 5, "dim": 1531},
    },
}
