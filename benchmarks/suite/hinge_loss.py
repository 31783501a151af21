"""Mean hinge loss of 16384 x 8192 fp32 scores against one +-1 label per row (KernelBench level 1 100's op)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return torch.mean(torch.clamp(1 - predictions * targets, min=0))


batch_size = 16384
dim = 8192


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randint(0, 2, (batch_size, 1)).float() * 2 - 1]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 8, "dim": 500},
        "odd": {"batch_size": 5, "dim": 1531},
    },
}
