"""The measured bandwidths behind the roofline, on a real GPU (marked gpu)."""

from __future__ import annotations

import pytest

from kernelevo.evaluation.judge.hardware import measure_copy_bandwidth, measure_read_bandwidth

pytestmark = pytest.mark.gpu


def test_a_read_runs_about_as_fast_as_a_copy_or_faster() -> None:
    import torch

    device = torch.device("cuda")
    copy, read = measure_copy_bandwidth(device), measure_read_bandwidth(device)
    assert 1000 < copy < 10_000 and 1000 < read < 10_000, (copy, read)
    assert read >= 0.9 * copy, (copy, read)
