"""benchmarks/where_time_goes.py's reading of Nsight Compute's raw CSV (ncu itself needs a GPU)."""

from __future__ import annotations

import csv
import importlib.util
import io
from pathlib import Path

_SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "where_time_goes.py"
_spec = importlib.util.spec_from_file_location("where_time_goes", _SCRIPT)
assert _spec is not None and _spec.loader is not None
where_time_goes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(where_time_goes)

HEADER = ('"ID","Kernel Name","gpu__time_duration.sum","dram__bytes_read.sum","dram__bytes_write.sum",'
          '"dram__throughput.avg.pct_of_peak_sustained_elapsed","lts__t_sector_hit_rate.pct"')


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_a_kernel_row_reads_its_dram_and_the_units_row_is_skipped() -> None:
    extra = ',"l1tex__throughput.avg.pct_of_peak_sustained_elapsed","sm__throughput.avg.pct_of_peak_sustained_elapsed"'
    text = (HEADER + extra + ',"sm__warps_active.avg.pct_of_peak_sustained_active"\n'
            '"","","ns","byte","byte","%","%","%","%","%"\n'
            '"0","triton_poi_pool","451,552","536,870,912","537,001,984","55.1","87.2","91.5","48.3","62.0"\n')
    [kernel] = where_time_goes.kernels_of(rows(text))
    assert kernel["duration_us"] == 451.552 and kernel["dram_read_mb"] == 536.870912
    assert kernel["l1_throughput_pct"] == 91.5 and kernel["sm_throughput_pct"] == 48.3
    assert kernel["occupancy_pct"] == 62.0


def test_a_report_without_the_later_metrics_still_parses() -> None:
    text = HEADER + '\n"0","k","2,000","1000000","0","10.0","50.0"\n'
    [kernel] = where_time_goes.kernels_of(rows(text))
    assert kernel["duration_us"] == 2.0 and kernel["dram_write_mb"] == 0.0
    assert kernel["l1_throughput_pct"] is None and kernel["occupancy_pct"] is None
