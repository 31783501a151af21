"""An MLP as nn.Sequential: 4096 -> 4096 -> 4096 -> 1024 with ReLUs, on 1024 rows of fp32 (KernelBench level 3 1)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, input_size: int, hidden1: int, hidden2: int, output_size: int):
        super().__init__()
        self.network = nn.Sequential(
            nn.Linear(input_size, hidden1), nn.ReLU(),
            nn.Linear(hidden1, hidden2), nn.ReLU(),
            nn.Linear(hidden2, output_size),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.network(x)


batch_size = 1024
input_size = 4096
hidden1 = 4096
hidden2 = 4096
output_size = 1024


def get_inputs():
    return [torch.randn(batch_size, input_size)]


def get_init_inputs():
    return [input_size, hidden1, hidden2, output_size]


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 8, "input_size": 32, "hidden1": 48, "hidden2": 40, "output_size": 16},
        "odd": {"batch_size": 5, "input_size": 35, "hidden1": 45, "hidden2": 33, "output_size": 7},
    },
}
