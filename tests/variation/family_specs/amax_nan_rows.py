"""Max over the last dim of 6 x 600 fp32 with a NaN in every third row: torch.amax propagates NaN, so the
family's max must too (tl.max alone drops it).

Tests only: sizes the CPU interpreter runs in seconds."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.amax(x, dim=-1)


batch_size = 6
dim = 600


def get_inputs():
    x = torch.randn(batch_size, dim)
    x[::3, dim // 2] = float("nan")  # rows 0, 3, ...: their max is NaN
    return [x]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 4, "dim": 40},
        "odd": {"batch_size": 5, "dim": 333}},
}
