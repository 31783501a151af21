"""Row-wise softmax over the last dim of a large fp32 matrix, for CUDA C++ kernels: memory-bound on an H200.

The problem is ``examples/softmax``'s (same reference, sizes and variants); only the
target language differs. The default variant reads 16384 x 8192 fp32 (512 MiB) and
writes as much: ~1.07 GB, a floor of ~0.25 ms at the H200's ~4.3 TB/s. A kernel wins by
reading each row once: a row of 8192 floats (32 KiB) fits in one block's registers.
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
    "language": "cuda",
    "variants": {
        "small": {"batch_size": 8, "dim": 1000},
        # a prime row length: not a multiple of 4, so rows take the scalar path, and every row needs its mask
        "odd": {"batch_size": 5, "dim": 1531},
    },
    "seeds": ["seed.py"],
}
