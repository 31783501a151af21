"""Mean of 1 - cosine similarity between the rows of two 16384 x 4096 fp32 tensors (KernelBench level 1 97's op)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return torch.mean(1 - torch.nn.functional.cosine_similarity(predictions, targets, dim=1))


batch_size = 16384
dim = 4096


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 8, "dim": 500},
        "odd": {"batch_size": 5, "dim": 1531},
    },
}
