"""Whole-tensor checks in bounded memory: chunks line up, equality sees every element."""

from __future__ import annotations

import pytest
import torch

from kernelevo.utils import tensors
from kernelevo.utils.tensors import chunks, equal, max_abs_difference


def test_contiguous_chunks_are_views_that_cover_every_element() -> None:
    a = torch.arange(100.0).reshape(10, 10)
    parts = list(chunks(a, a.clone(), elements=30))
    assert [offset for offset, _ in parts] == [0, 30, 60, 90]
    assert torch.equal(torch.cat([x for _, (x, _) in parts]), a.reshape(-1))
    assert parts[0][1][0].data_ptr() == a.data_ptr()  # a view: nothing copied


def test_non_contiguous_tensors_are_walked_by_rows_in_row_major_order() -> None:
    a = torch.arange(60.0).reshape(6, 10).t()  # 10 x 6, transposed
    parts = list(chunks(a, a.contiguous(), elements=12))
    assert [offset for offset, _ in parts] == [0, 12, 24, 36, 48]
    for _, (x, y) in parts:
        assert torch.equal(x, y)
    assert torch.equal(torch.cat([x for _, (x, _) in parts]), a.reshape(-1))


def test_equal_finds_one_different_element_in_a_late_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tensors, "CHUNK_ELEMENTS", 7)
    a = torch.randn(5, 9)
    b = a.clone()
    assert equal(a, b)
    b[4, 8] += 1
    assert not equal(a, b)
    assert max_abs_difference(a, b) == pytest.approx(1.0)
    assert not equal(a, b.double()) and not equal(a, b[:4])


def test_nans_in_the_same_places_are_equal_only_when_asked() -> None:
    a = torch.tensor([1.0, float("nan"), 3.0])
    assert not equal(a, a.clone())
    assert equal(a, a.clone(), nan_equal=True)
    assert not equal(a, torch.tensor([1.0, 2.0, 3.0]), nan_equal=True)
