"""Which floor bounds a kernel's time (:meth:`kernelevo.evaluation.judge.hardware.Ceilings.floor`), made-up ceilings."""

from __future__ import annotations

import pytest

from kernelevo.evaluation.judge.hardware import Ceilings
from kernelevo.records.result import Floor

GIB = 1 << 30
H200 = Ceilings(bandwidth_gbs=4000.0, read_bandwidth_gbs=4400.0, peak_tflops={"float32": 494.7})


def ms(nbytes: float, gbs: float) -> float:
    return nbytes / (gbs * 1e9) * 1e3


def test_a_copy_gets_the_copy_floor() -> None:
    assert H200.floor(GIB, GIB, 0, "float32") == (pytest.approx(ms(2 * GIB, 4000.0)), Floor.COPY)


def test_a_reduction_gets_the_read_floor() -> None:
    floor_ms, kind = H200.floor(GIB, 4 * 128 * 512, GIB // 4, "float32")  # sum_dim1: 1 GiB in, 256 KiB out
    assert kind == Floor.READ
    assert floor_ms == pytest.approx(ms(GIB, 4400.0), rel=1e-3)  # the written bytes count, a little
    assert floor_ms < ms(GIB, 4000.0)  # below the copy floor the same bytes got before


def test_a_kernel_that_reads_more_than_it_writes_lies_between_the_read_and_copy_floors() -> None:
    floor_ms, kind = H200.floor(2 * GIB, GIB, 0, "float32")  # c = a + b
    assert kind == Floor.READ
    assert ms(3 * GIB, 4400.0) < floor_ms < ms(3 * GIB, 4000.0)


def test_a_kernel_that_writes_more_than_it_reads_keeps_the_copy_floor() -> None:
    assert H200.floor(GIB // 4, GIB, 0, "float32") == (pytest.approx(ms(GIB * 5 / 4, 4000.0)), Floor.COPY)


def test_a_compute_bound_kernel_gets_the_compute_floor() -> None:
    n = 8192  # an fp32 GEMM: 3 x 256 MiB of data, 1.1 TFLOP
    floor_ms, kind = H200.floor(2 * 4 * n * n, 4 * n * n, 2 * n**3, "float32")
    assert kind == Floor.COMPUTE and floor_ms == pytest.approx(2 * n**3 / 494.7e12 * 1e3)


def test_without_a_read_bandwidth_every_memory_floor_is_the_copy_floor() -> None:
    old = Ceilings(bandwidth_gbs=4000.0, peak_tflops={})
    assert old.floor(GIB, 4, 0, "float32") == (pytest.approx(ms(GIB + 4, 4000.0)), Floor.COPY)


def test_a_read_bandwidth_below_the_copy_bandwidth_never_raises_a_floor() -> None:
    odd = Ceilings(bandwidth_gbs=4000.0, read_bandwidth_gbs=3000.0, peak_tflops={})
    assert odd.floor(GIB, 4, 0, "float32") == (pytest.approx(ms(GIB + 4, 4000.0)), Floor.COPY)


def test_no_floor_without_a_measured_bandwidth() -> None:
    assert Ceilings(bandwidth_gbs=None, peak_tflops={}).floor(GIB, GIB, 0, "float32") is None
