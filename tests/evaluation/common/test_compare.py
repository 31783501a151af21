"""Comparing outputs: each kind of difference gets its own reason and a useful summary."""

from __future__ import annotations

import pytest
import torch

from kernelevo.evaluation.common.compare import compare_outputs, poison_value
from kernelevo.records.result import ErrorKind


def check(got, expected, **kw):
    return compare_outputs(got, expected, atol=1e-4, rtol=1e-4, variant="small", trial="fresh inputs", **kw)


def test_equal_within_tolerance() -> None:
    e = torch.randn(8, 8)
    assert check([e + 1e-6], [e]) is None


def test_mismatch_summary_points_at_the_worst_element() -> None:
    e = torch.zeros(4, 5)
    g = e.clone()
    g[2, 3] = 0.5
    g[1, 1] = 0.01
    verdict = check([g], [e])
    assert verdict is not None and verdict.kind == ErrorKind.WRONG_OUTPUT
    m = verdict.mismatch
    assert m is not None and m.worst_index == [2, 3] and m.mismatched == 2 and m.total == 20
    assert m.max_abs_error == 0.5 and m.expected == 0.0 and m.got == 0.5
    assert "variant 'small'" in verdict.message and "[2,3]" in verdict.message


def test_dtype_shape_type_and_count() -> None:
    e = torch.randn(3, 3)
    assert check([e.double()], [e]).kind == ErrorKind.WRONG_DTYPE
    assert check([e.view(-1)], [e]).kind == ErrorKind.WRONG_SHAPE
    assert check([e, e], [e]).kind == ErrorKind.WRONG_TYPE

    class Sub(torch.Tensor):
        pass

    assert check([e.as_subclass(Sub)], [e]).kind == ErrorKind.WRONG_TYPE


def test_nan_and_inf_positions() -> None:
    e = torch.randn(10)
    g = e.clone()
    g[3] = float("nan")
    assert check([g], [e]).kind == ErrorKind.NAN_INF_MISMATCH
    e2 = e.clone()
    e2[4] = float("inf")
    g2 = e2.clone()
    g2[4] = float("-inf")
    assert check([g2], [e2]).kind == ErrorKind.NAN_INF_MISMATCH
    assert check([e2.clone()], [e2]) is None  # Inf where the reference has Inf is fine


def test_poison_means_unwritten_memory() -> None:
    e = torch.randn(16)
    g = e.clone()
    g[5:] = poison_value(torch.float32, 1)
    assert check([g], [e], poison=1).kind == ErrorKind.UNINITIALIZED_OUTPUT


def test_integer_outputs_must_be_exact() -> None:
    e = torch.arange(10)
    assert check([e.clone()], [e]) is None
    g = e.clone()
    g[7] = 0
    assert check([g], [e]).kind == ErrorKind.WRONG_OUTPUT


def test_outputs_are_compared_chunk_by_chunk_with_the_same_findings(monkeypatch: pytest.MonkeyPatch) -> None:
    """A small chunk size: the worst element, the counts and the first NaN come from any chunk."""
    from kernelevo.utils import tensors

    monkeypatch.setattr(tensors, "CHUNK_ELEMENTS", 16)
    e = torch.zeros(10, 10)
    g = e.clone()
    g[1, 2], g[9, 7] = 0.01, 0.5
    m = check([g], [e]).mismatch
    assert m is not None and m.worst_index == [9, 7] and m.mismatched == 2 and m.total == 100
    assert m.max_abs_error == pytest.approx(0.5) and m.got == pytest.approx(0.5)
    g[8, 1] = float("nan")
    verdict = check([g], [e])
    assert verdict.kind == ErrorKind.NAN_INF_MISMATCH and "[8, 1]" in verdict.message
    late_poison = e.clone()
    late_poison[9, 9] = poison_value(torch.float32, 0)
    assert check([late_poison], [e], poison=0).kind == ErrorKind.UNINITIALIZED_OUTPUT
    assert check([e.t().contiguous().t()], [e]) is None  # a non-contiguous output of the right values
