"""Max over the middle dim of 128 x 4096 x 512 fp32 (KernelBench level 1 49): a strided reduction, 1 GiB read."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.max(x, dim=1).values


batch_size = 128
dim1 = 4096
dim2 = 512


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 2, "dim1": 100, "dim2": 24},
        "odd": {"batch_size": 3, "dim1": 257, "dim2": 37},
    },
}
