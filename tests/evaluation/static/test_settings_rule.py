"""torch's global settings set from a candidate's forward: precision ones named as such, queries let through."""

from __future__ import annotations

import pytest

from kernelevo.evaluation.static.check import check_source
from kernelevo.records.result import ErrorKind

CANDIDATE = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    pass


class ModelNew(nn.Module):
    def forward(self, a, b):
{body}
        k[(1,)](a)
        return torch.matmul(a, b)
'''


def _kinds(body: str) -> set[ErrorKind]:
    return {f.kind for f in check_source(CANDIDATE.format(body=body))}


@pytest.mark.parametrize("body", [
    "        torch.backends.cuda.matmul.allow_tf32 = True",
    "        torch.backends.cuda.matmul.fp32_precision = 'tf32'",
    "        torch.set_float32_matmul_precision('high')",
    "        with torch.backends.cudnn.flags(enabled=True, allow_tf32=True):\n            pass",
])
def test_precision_settings_are_named(body: str) -> None:
    assert ErrorKind.PRECISION_SETTINGS in _kinds(body)


def test_another_backend_setting_is_a_patch_and_queries_pass() -> None:
    assert _kinds("        torch.backends.cuda.preferred_blas_library('cublaslt')") == {ErrorKind.MONKEY_PATCH}
    assert _kinds("        ok = torch.backends.cudnn.is_available()") == set()
    assert _kinds("        lib = torch.backends.cuda.preferred_blas_library()") == set()
    assert _kinds("        tf32 = torch.backends.cuda.matmul.allow_tf32") == set()  # reading is no change
