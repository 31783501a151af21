import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers=3, bias=True, batch_first=False):
        """A stacked bidirectional GRU over a sequence-first input, given its initial state."""
        super().__init__()
        self.gru = nn.GRU(input_size, hidden_size, num_layers, bias, batch_first, dropout=0, bidirectional=True)

    def forward(self, x, h0):
        output, _ = self.gru(x, h0)
        return output


batch_size = 10
seq_len = 512
input_size = 128
hidden_size = 256
num_layers = 6


def get_inputs():
    return [torch.randn(seq_len, batch_size, input_size), torch.randn((num_layers * 2, batch_size, hidden_size))]


def get_init_inputs():
    return [input_size, hidden_size, num_layers]
