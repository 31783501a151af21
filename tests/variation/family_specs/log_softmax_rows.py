"""LogSoftmax over rows of 6 x 5000 fp32.

Tests only: sizes the CPU interpreter runs in seconds."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.log_softmax(x, dim=1)


batch_size = 6
dim = 5000


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "atol": 1e-3,
    "rtol": 1e-3,
    "variants": {
        "small": {"batch_size": 8, "dim": 1000},
        "odd": {"batch_size": 5, "dim": 1531}},
}
