"""Cumulative product along rows of 8192 x 8192 fp32 near 1 (KernelBench level 1 90's op, kept finite)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumprod(x, dim=1)


batch_size = 8192
dim = 8192


def get_inputs():
    # in [0.99, 1.01): a running product of 8192 of them stays near 1 (randn's would underflow to 0 in ~100)
    return [torch.rand(batch_size, dim) * 0.02 + 0.99]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    # a running product of 8192 floats, multiplied in any order but eager's: up to ~1e-4 relative apart
    "atol": 1e-3,
    "rtol": 1e-3,
    "variants": {
        "small": {"batch_size": 8, "dim": 1000},
        "odd": {"batch_size": 5, "dim": 1531},
    },
}
