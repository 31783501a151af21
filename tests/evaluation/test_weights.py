"""A candidate's weights are the reference's: copied by name, else the same seed's initialisation.

The candidate's child builds the reference models before its candidate arrives (while the
one before is judged); these run through the evaluator on the CPU, so they cover that path.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelevo.evaluation import ErrorKind, EvalOptions, Evaluator
from kernelevo.spec import read_spec

SPEC = '''
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return self.linear(x)


rows, k, n = 5, 12, 6


def get_inputs():
    return [torch.randn(rows, k)]


def get_init_inputs():
    return [k, n]


KERNELEVO = {"dtype": "float32", "variants": {"small": {"rows": 3, "k": 9, "n": 4}}}
'''

# One program per output row: out[r, :] = W @ x[r, :] + b. LAYOUT is each case's __init__.
CANDIDATE = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_row_kernel(x_ptr, w_ptr, b_ptr, out_ptr, K, N, BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    ks = tl.arange(0, BLOCK_K)
    ns = tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + row * K + ks, mask=ks < K, other=0.0)
    w = tl.load(w_ptr + ns[:, None] * K + ks[None, :], mask=(ns[:, None] < N) & (ks[None, :] < K), other=0.0)
    b = tl.load(b_ptr + ns, mask=ns < N, other=0.0)
    tl.store(out_ptr + row * N + ns, tl.sum(w * x[None, :], axis=1) + b, mask=ns < N)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
LAYOUT

    def forward(self, x):
        w, b = WEIGHTS
        rows, k = x.shape
        out = torch.empty((rows, w.shape[0]), device=x.device, dtype=x.dtype)
        linear_row_kernel[(rows,)](x, w, b, out, k, w.shape[0],
                                   BLOCK_K=triton.next_power_of_2(k), BLOCK_N=triton.next_power_of_2(w.shape[0]))
        return out
'''

SAME = ("        self.linear = nn.Linear(in_features, out_features)", "self.linear.weight, self.linear.bias")
# draws from the generator first: its own initialisation differs from the reference's
REORDERED = ("        self.extra = nn.Parameter(torch.randn(7))\n"
             "        self.linear = nn.Linear(in_features, out_features)", "self.linear.weight, self.linear.bias")
# the reference's initialisation, in the same order, under other names: nothing to copy, the seed suffices
RENAMED = ("        lin = nn.Linear(in_features, out_features)\n"
           "        self.w, self.b = nn.Parameter(lin.weight.detach()), nn.Parameter(lin.bias.detach())",
           "self.w, self.b")
# other names and another order: its weights are not the reference's
RENAMED_AND_REORDERED = ("        self.extra = nn.Parameter(torch.randn(7))\n" + RENAMED[0], RENAMED[1])


@pytest.fixture(scope="module")
def evaluator(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("linear")
    (folder / "spec.py").write_text(SPEC)
    options = EvalOptions(device="cpu", run_timeout_s=30, compile_timeout_s=60, aot_metadata=False)
    with Evaluator(read_spec(str(Path(folder / "spec.py"))), options) as ev:
        yield ev


def candidate(layout: tuple[str, str]) -> str:
    return CANDIDATE.replace("LAYOUT", layout[0]).replace("WEIGHTS", layout[1])


@pytest.mark.parametrize("layout", [SAME, REORDERED, RENAMED], ids=["same", "reordered", "renamed"])
def test_a_candidate_gets_the_references_weights(evaluator: Evaluator, layout: tuple[str, str]) -> None:
    result = evaluator.evaluate(candidate(layout))
    assert result.ok, result.message


def test_weights_of_its_own_are_wrong(evaluator: Evaluator) -> None:
    result = evaluator.evaluate(candidate(RENAMED_AND_REORDERED))
    assert result.error == ErrorKind.WRONG_OUTPUT, result.message
