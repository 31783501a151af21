# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "gru_bidirectional"
# spec sha256: "f9ed0efecd9b8473d90b337b1cb1b45dfe4dcda8e5210a05b6968e8058cc5294"
# hardware: "h200"
# made: "2026-12-03T07:48:32+00:00"
# candidate: {"run": 1, "number": 0, "operator": "seed", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 123.3933 ms (IQR 3.9861), 0.99x eager, 0.99x torch.compile, 0% of roofline (read)"
# variants checked: ["default"]

import torch
import torch.nn as nn

class ModelNew(nn.Module):

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
