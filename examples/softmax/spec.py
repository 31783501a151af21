"""Row-wise softmax over the last dim of a large fp32 matrix: memory-bound on an H200.

The default variant reads 16384 x 8192 fp32 (512 MiB) and writes as much: ~1.07 GB, a
floor of ~0.25 ms at the H200's ~4.3 TB/s copy bandwidth, against ~0.7 GFLOP (a max, a
subtract, an exp, a sum and a divide per element), well under 1 us of compute. A kernel
wins by reading each row once: a row of 8192 floats (32 KiB) fits on chip.
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x, dim=-1)


batch_size = 16384
dim = 8192


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 8, "dim": 1000},
        # a prime row length: no power of two divides it, so every row needs its mask
        "odd": {"batch_size": 5, "dim": 1531},
    },
    "seeds": ["seed.py", "seed_online.py"],
}
