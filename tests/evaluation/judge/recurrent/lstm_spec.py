"""An LSTM in KernelBench's form (level 3, 35 to 38) at the default tolerance: cuDNN runs it in TF32 on a GPU."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers):
        super().__init__()
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)

    def forward(self, x, h0, c0):
        out, _ = self.lstm(x, (h0, c0))
        return out


batch, steps, input_size, hidden_size, num_layers = 8, 128, 128, 256, 2


def get_inputs():
    return [torch.rand(batch, steps, input_size), torch.rand(num_layers, batch, hidden_size),
            torch.rand(num_layers, batch, hidden_size)]


def get_init_inputs():
    return [input_size, hidden_size, num_layers]
