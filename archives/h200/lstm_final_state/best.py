# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "lstm_final_state"
# spec sha256: "ff89a8c3b4dbe30e5629b4dffb0c5778c0a37b292328382f15c9d6c15bde5833"
# hardware: "h200"
# made: "2026-12-03T07:47:43+00:00"
# candidate: {"run": 1, "number": 0, "operator": "seed", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 32.2388 ms (IQR 8.5024), 0.92x eager, 1.37x torch.compile, 0% of roofline (read)"
# variants checked: ["default"]

import torch
import torch.nn as nn

class ModelNew(nn.Module):

    def __init__(self, input_size, hidden_size, num_layers, output_size, dropout=0.0):
        """A stacked LSTM that returns its final hidden state, its initial state held by the module (the form of
        KernelBench's older LSTM problems)."""
        super().__init__()
        self.h0 = torch.randn((num_layers, batch_size, hidden_size))
        self.c0 = torch.randn((num_layers, batch_size, hidden_size))
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True, dropout=dropout, bidirectional=False)
        self.fc = nn.Linear(hidden_size, output_size)

    def forward(self, x):
        self.h0 = self.h0.to(x.device)
        self.c0 = self.c0.to(x.device)
        out, state = self.lstm(x, (self.h0, self.c0))
        out = self.fc(out[:, -1, :])
        return state[0]
batch_size = 10
sequence_length = 512
input_size = 128
hidden_size = 256
num_layers = 6
output_size = 10
dropout = 0.0
