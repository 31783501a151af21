"""Product over the middle dim (64) of 128 x 64 x 16384 fp32 near 1 (KernelBench level 1 50's op, kept finite)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.prod(x, dim=1)


batch_size = 128
dim1 = 64
dim2 = 16384


def get_inputs():
    # in [0.8, 1.2): a product of 64 of them stays within fp32's range (randn's would mostly flush to 0 or inf)
    return [torch.rand(batch_size, dim1, dim2) * 0.4 + 0.8]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 2, "dim1": 16, "dim2": 64},
        "odd": {"batch_size": 3, "dim1": 7, "dim2": 77},
    },
}
