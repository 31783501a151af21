"""bf16 causal scaled dot-product attention, batch 16, 16 heads, 2048 tokens, head dim 128: 550 GFLOP unmasked."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)


batch_size = 16
num_heads = 16
seq_len = 2048
head_dim = 128


def get_inputs():
    shape = (batch_size, num_heads, seq_len, head_dim)
    return [torch.randn(shape), torch.randn(shape), torch.randn(shape)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "bfloat16",
    "variants": {
        "small": {"batch_size": 1, "num_heads": 2, "seq_len": 16, "head_dim": 16},
        "odd": {"batch_size": 1, "num_heads": 3, "seq_len": 33, "head_dim": 24},
    },
}
