"""fp16 scaled dot-product attention, batch 32, 16 heads, 1024 tokens, head dim 64 (no mask): 137 GFLOP."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.scaled_dot_product_attention(q, k, v)


batch_size = 32
num_heads = 16
seq_len = 1024
head_dim = 64


def get_inputs():
    shape = (batch_size, num_heads, seq_len, head_dim)
    return [torch.randn(shape), torch.randn(shape), torch.randn(shape)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float16",
    "variants": {
        "small": {"batch_size": 1, "num_heads": 2, "seq_len": 16, "head_dim": 16},
        "odd": {"batch_size": 1, "num_heads": 3, "seq_len": 33, "head_dim": 24},
    },
}
