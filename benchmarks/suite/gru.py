"""A 2-layer GRU (256 -> 512 hidden) over 256 steps of 32 sequences, fp32, given h0 (KernelBench level 3 39)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, num_layers: int):
        super().__init__()
        self.gru = nn.GRU(input_size, hidden_size, num_layers)

    def forward(self, x: torch.Tensor, h0: torch.Tensor) -> torch.Tensor:
        out, _ = self.gru(x, h0)
        return out


seq_len = 256
batch_size = 32
input_size = 256
hidden_size = 512
num_layers = 2


def get_inputs():
    return [torch.randn(seq_len, batch_size, input_size), torch.randn(num_layers, batch_size, hidden_size)]


def get_init_inputs():
    return [input_size, hidden_size, num_layers]


KERNELEVO = {
    "dtype": "float32",
    # cuDNN runs an fp32 RNN in TF32 by default (torch.backends.cudnn.allow_tf32 sets its math type), so the
    # reference misses exact fp32 by ~1e-3 on a GPU; KernelBench's original tolerance, 1e-2, admits both
    "atol": 1e-2,
    "rtol": 1e-2,
    "variants": {
        "small": {"batch_size": 2, "seq_len": 5, "input_size": 8, "hidden_size": 8},
        "odd": {"batch_size": 3, "seq_len": 7, "input_size": 5, "hidden_size": 9, "num_layers": 3},
    },
}
