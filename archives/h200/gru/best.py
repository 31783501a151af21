# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "gru"
# spec sha256: "1ca53e61179f5a1b0e0926f5e07d6696a0482dd981af3cd576319179f89f275f"
# hardware: "h200"
# made: "2026-11-27T07:07:46+00:00"
# candidate: {"run": 1, "number": 0, "operator": "seed", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 5.9924 ms (IQR 0.1860), 1.55x eager, 1.53x torch.compile, 0% of roofline (read)"
# variants checked: ["small", "odd", "default"]

"""A 2-layer GRU (256 -> 512 hidden) over 256 steps of 32 sequences, fp32, given h0 (KernelBench level 3 39)."""
import torch
import torch.nn as nn

class ModelNew(nn.Module):

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
