"""What `kernelevo eval` prints of a kernel's roofline: the fraction, and which floor it is of."""

from __future__ import annotations

from rich.console import Console

from kernelevo.cli.report import print_result, results_table
from kernelevo.records.result import EvalResult, Floor, Roofline, Stage, Timing


def result(roofline: Roofline) -> EvalResult:
    kernel = Timing(median_ms=0.332, iqr_ms=0.001, min_ms=0.331, mean_ms=0.332, repetitions=50, method="cuda_events")
    return EvalResult(correct=True, stage=Stage.VERDICT, kernel=kernel, speedup_eager=1.2, roofline=roofline)


READ = Roofline(bytes_moved=1073741824 + 262144, bytes_read=1073741824, bytes_written=262144, flops=0,
                bandwidth_gbs=3012.0, read_bandwidth_gbs=3301.0, peak_tflops=494.7, floor_ms=0.3254, fraction=0.98,
                floor=Floor.READ)
OLD = Roofline(bytes_moved=1073741824, flops=0, bandwidth_gbs=3012.0, peak_tflops=494.7, floor_ms=0.3565,
               fraction=0.9)


def printed(r: EvalResult) -> str:
    console = Console(record=True, width=200)
    print_result(console, r, spec_name="sum", kernel_name="k.py")
    return console.export_text()


def table(r: EvalResult) -> str:
    console = Console(record=True, width=200)
    console.print(results_table([("k.py", r)], title="t"))
    return console.export_text()


def test_the_verdict_names_the_floor_and_what_it_is_made_of() -> None:
    assert ("roofline: read floor 0.3254 ms (1073.7 MB read, 0.3 MB written; 3012 GB/s copy, 3301 GB/s read; "
            "0.00 GFLOP), reached 98%") in printed(result(READ))
    assert "roofline: copy floor 0.3565 ms (1073.7 MB moved; 3012 GB/s copy; 0.00 GFLOP), reached 90%" in printed(
        result(OLD))  # an older record: its floor read off its numbers


def test_the_table_names_the_floor_beside_the_fraction() -> None:
    assert "98% (read)" in table(result(READ))
    assert "90% (copy)" in table(result(OLD))
