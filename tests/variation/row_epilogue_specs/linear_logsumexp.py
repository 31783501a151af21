"""Linear 96 -> 200 on 64 rows, then LogSumExp of each row, fp32: a row of 200 fits one tile (tests only)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.logsumexp(self.linear(x), dim=1, keepdim=True)


batch_size = 64
in_features = 96
out_features = 200


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]


KERNELEVO = {
    "dtype": "float32",
    # the rows and the reduced width stay, as they do in a module inductor compiled for one width
    "variants": {
        "small": {"batch_size": 16},
        "odd": {"batch_size": 37, "in_features": 70},
    },
}
