"""The LSTM of lstm_spec.py in exact fp32: its gates as fp32 dot products in Triton (no TF32), its cell fused."""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _gate(acc, w_ptr, v, rows, cols, K, mask):
    w = tl.load(w_ptr + rows[:, None] * K + cols[None, :], mask=mask, other=0.0)
    return acc + tl.sum(w * v[None, :], axis=1)


@triton.jit
def _four_gates(acc_i, acc_f, acc_g, acc_o, w_ptr, v_ptr, j, jm, K, H, BLOCK_K: tl.constexpr):
    # the four gates' rows of W (K columns) times the vector v, added to their accumulators
    for k0 in range(0, K, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        km = k < K
        v = tl.load(v_ptr + k, mask=km, other=0.0)
        m = jm[:, None] & km[None, :]
        acc_i = _gate(acc_i, w_ptr, v, j, k, K, m)
        acc_f = _gate(acc_f, w_ptr, v, j + H, k, K, m)
        acc_g = _gate(acc_g, w_ptr, v, j + 2 * H, k, K, m)
        acc_o = _gate(acc_o, w_ptr, v, j + 3 * H, k, K, m)
    return acc_i, acc_f, acc_g, acc_o


@triton.jit
def lstm_step(x_ptr, x_row, h_ptr, h_row, c_ptr, wih_ptr, whh_ptr, bih_ptr, bhh_ptr, out_ptr, out_row,
              IN, H, BLOCK_H: tl.constexpr, BLOCK_K: tl.constexpr):
    # one batch row and BLOCK_H hidden units: the four gates as exact fp32 dot products, then the cell
    b = tl.program_id(0)
    j = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    jm = j < H
    zero = tl.zeros([BLOCK_H], tl.float32)
    acc_i, acc_f, acc_g, acc_o = _four_gates(zero, zero, zero, zero, wih_ptr, x_ptr + b * x_row, j, jm, IN, H,
                                             BLOCK_K)
    acc_i, acc_f, acc_g, acc_o = _four_gates(acc_i, acc_f, acc_g, acc_o, whh_ptr, h_ptr + b * h_row, j, jm, H, H,
                                             BLOCK_K)
    acc_i += tl.load(bih_ptr + j, mask=jm, other=0.0) + tl.load(bhh_ptr + j, mask=jm, other=0.0)
    acc_f += tl.load(bih_ptr + H + j, mask=jm, other=0.0) + tl.load(bhh_ptr + H + j, mask=jm, other=0.0)
    acc_g += tl.load(bih_ptr + 2 * H + j, mask=jm, other=0.0) + tl.load(bhh_ptr + 2 * H + j, mask=jm, other=0.0)
    acc_o += tl.load(bih_ptr + 3 * H + j, mask=jm, other=0.0) + tl.load(bhh_ptr + 3 * H + j, mask=jm, other=0.0)
    c = tl.load(c_ptr + b * H + j, mask=jm, other=0.0)
    c = tl.sigmoid(acc_f) * c + tl.sigmoid(acc_i) * (2.0 * tl.sigmoid(2.0 * acc_g) - 1.0)
    h = tl.sigmoid(acc_o) * (2.0 * tl.sigmoid(2.0 * c) - 1.0)
    tl.store(c_ptr + b * H + j, c, mask=jm)
    tl.store(out_ptr + b * out_row + j, h, mask=jm)


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers):
        super().__init__()
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)  # its weights only

    def forward(self, x, h0, c0):
        batch, steps, _ = x.shape
        hidden, layers = self.lstm.hidden_size, self.lstm.num_layers
        layer_in = x.contiguous()
        for layer in range(layers):
            w_ih, w_hh, b_ih, b_hh = self.lstm.all_weights[layer]
            size = layer_in.shape[2]
            out = torch.empty(batch, steps, hidden, device=x.device, dtype=x.dtype)
            c = c0[layer].clone()
            h_prev, h_row = h0[layer], hidden
            grid = (batch, triton.cdiv(hidden, 32))
            for t in range(steps):
                lstm_step[grid](layer_in[:, t], steps * size, h_prev, h_row, c, w_ih, w_hh, b_ih, b_hh,
                                out[:, t], steps * hidden, size, hidden, BLOCK_H=32, BLOCK_K=64)
                h_prev, h_row = out[:, t], steps * hidden
            layer_in = out
        return layer_in
