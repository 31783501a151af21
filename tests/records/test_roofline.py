"""The roofline record: old stored results (before reads and writes were told apart) still load and say
which floor they used; new ones name theirs."""

from __future__ import annotations

from kernelevo.records.result import EvalResult, Floor, Roofline

OLD = {"bytes_moved": 1073741824, "flops": 0, "bandwidth_gbs": 3012.0, "peak_tflops": 494.7, "floor_ms": 0.3565,
       "fraction": 0.9}


def test_an_old_record_loads_and_its_floor_is_read_off_its_numbers() -> None:
    old = Roofline.model_validate(OLD)
    assert old.bytes_read is None and old.bytes_written is None and old.read_bandwidth_gbs is None
    assert old.floor is None and old.floor_kind() == Floor.COPY
    assert old.terms().startswith("1073.7 MB moved; 3012 GB/s copy")
    gemm = Roofline.model_validate({**OLD, "flops": 2 * 8192**3, "floor_ms": 2.22})
    assert gemm.floor_kind() == Floor.COMPUTE


def test_an_old_result_loads_whole() -> None:
    result = EvalResult.model_validate({"correct": True, "stage": "verdict", "roofline": OLD})
    assert result.roofline is not None and result.roofline.floor is None
    assert result.speed_parts() == ["90% of roofline (copy)"]


def test_a_new_record_names_its_floor_and_round_trips() -> None:
    new = Roofline(bytes_moved=1073741824 + 262144, bytes_read=1073741824, bytes_written=262144, flops=0,
                   bandwidth_gbs=3012.0, read_bandwidth_gbs=3301.0, peak_tflops=494.7, floor_ms=0.3254,
                   fraction=0.98, floor=Floor.READ)
    again = Roofline.model_validate_json(new.model_dump_json())
    assert again == new and again.floor_kind() == Floor.READ
    assert again.model_dump(mode="json")["floor"] == "read"
    assert again.terms() == "1073.7 MB read, 0.3 MB written; 3012 GB/s copy, 3301 GB/s read; 0.00 GFLOP"
