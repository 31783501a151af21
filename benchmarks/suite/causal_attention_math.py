"""fp32 causal attention written out as MinGPT does (QK^T, mask, softmax, @V): 8 x 12 heads x 1024 x 64."""

import math

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, seq_len: int):
        super().__init__()
        # MinGPT's causal mask, a buffer as large as the sequence squared
        self.register_buffer("bias", torch.tril(torch.ones(seq_len, seq_len)).view(1, 1, seq_len, seq_len))

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        t = q.size(-2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :t, :t] == 0, float("-inf"))
        att = torch.softmax(att, dim=-1)
        return att @ v


batch_size = 8
num_heads = 12
seq_len = 1024
head_dim = 64


def get_inputs():
    shape = (batch_size, num_heads, seq_len, head_dim)
    return [torch.randn(shape), torch.randn(shape), torch.randn(shape)]


def get_init_inputs():
    return [seq_len]


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 1, "num_heads": 2, "seq_len": 16, "head_dim": 16},
        "odd": {"batch_size": 1, "num_heads": 3, "seq_len": 33, "head_dim": 24},
    },
}
