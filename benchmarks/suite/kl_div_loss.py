"""KL divergence (batchmean) between two row-softmaxed 8192 x 8192 fp32 distributions (KernelBench level 1 98's op)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.kl_div(torch.log(predictions), targets, reduction="batchmean")


batch_size = 8192
dim = 8192


def get_inputs():
    return [torch.randn(batch_size, dim).softmax(dim=-1), torch.randn(batch_size, dim).softmax(dim=-1)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 8, "dim": 500},
        "odd": {"batch_size": 5, "dim": 1531},
    },
}
