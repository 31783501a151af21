"""Mean over the last (contiguous) dim of 128 x 512 x 4096 fp32: 1 GiB read, one float per 4096."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.mean(x, dim=-1)


batch_size = 128
dim1 = 512
dim2 = 4096


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 2, "dim1": 24, "dim2": 100},
        "odd": {"batch_size": 3, "dim1": 37, "dim2": 257},
    },
}
