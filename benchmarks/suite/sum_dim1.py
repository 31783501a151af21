"""Sum over the middle dim of 128 x 4096 x 512 fp32 (1 GiB read, a strided reduction)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sum(x, dim=1, keepdim=True)


batch_size = 128
dim1 = 4096
dim2 = 512


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2)]


def get_init_inputs():
    return []


# 4096 fp32 values summed per output. Inductor's looped reduction adds them serially in a few lanes: simulated
# on the CPU at these sizes, 8 lanes were off torch's sum by up to 1.7e-4 and 4 lanes by 2.8e-4, over fp32's
# default 1e-4. torch.compile's own kernel was judged wrong on some inputs (benchmarks/README.md).
KERNELEVO = {
    "dtype": "float32",
    "atol": 1e-3,
    "rtol": 1e-3,
    "variants": {
        "small": {"batch_size": 2, "dim1": 100, "dim2": 24},
        "odd": {"batch_size": 3, "dim1": 257, "dim2": 37},
    },
}
