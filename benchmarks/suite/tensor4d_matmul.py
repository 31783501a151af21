"""fp32 4D tensor times matrix, einsum bijl,lk->bijk over 8 x 128 x 256 x 256 and 256 x 768 (KernelBench level 1 11)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.einsum("bijl,lk->bijk", A, B)


b = 8
i = 128
j = 256
l = 256  # noqa: E741 (KernelBench's name for the contracted dim)
k = 768


def get_inputs():
    return [torch.randn(b, i, j, l), torch.randn(l, k)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"b": 2, "i": 4, "j": 8, "l": 16, "k": 24},
        "odd": {"b": 3, "i": 5, "j": 7, "l": 9, "k": 11},
    },
}
