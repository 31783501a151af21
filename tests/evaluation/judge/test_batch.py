"""KernelBench's layout, the batch's records (resume, torn lines) and its summary (fast_p, geomeans)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from kernelevo.evaluation import ErrorKind, EvalResult, Stage
from kernelevo.evaluation.judge.batch import RecordFile, record_for, summarize
from kernelevo.evaluation.judge.kernelbench import pair


def touch(path: Path, text: str = "# kernel\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    problems, kernels = tmp_path / "KernelBench", tmp_path / "runs" / "gen"
    for level, name in ((1, "23_Softmax.py"), (1, "3_Matmul.py"), (2, "3_Conv_ReLU.py")):
        touch(problems / f"level{level}" / name, "# problem\n")
    touch(problems / "level1" / "README.md")
    for name in ("level_1_problem_23_sample_1_kernel.py", "level_1_problem_23_sample_0_kernel.py",
                 "level_1_problem_3_sample_0_kernel.py", "level_2_problem_3_sample_0_kernel.py",
                 "level_1_problem_99_sample_0_kernel.py", "notes_kernel.py"):
        touch(kernels / name)
    return problems, kernels


def test_kernels_pair_with_their_problems_by_level_and_id(layout: tuple[Path, Path]) -> None:
    problems, kernels = layout
    paired = pair(problems, kernels)
    assert [i.key for i in paired.items] == ["level1/problem3/sample0", "level1/problem23/sample0",
                                             "level1/problem23/sample1", "level2/problem3/sample0"]
    assert paired.items[1].problem.name == "Softmax" and paired.items[3].problem.path.parent.name == "level2"
    assert [p.name for p in paired.unmatched] == ["level_1_problem_99_sample_0_kernel.py"]
    assert [i.key for i in pair(problems, kernels, level=2).items] == ["level2/problem3/sample0"]
    assert len(pair(problems / "level1", kernels).items) == 3  # one level's directory works too


def result(ok: bool, eager: float | None = None, compiled: float | None = None,
           error: ErrorKind | None = None) -> EvalResult:
    return EvalResult(correct=ok, stage=Stage.VERDICT if ok else Stage.CORRECTNESS, error=error,
                      speedup_eager=eager, speedup_compile=compiled)


def test_records_survive_a_torn_last_line_and_are_not_judged_twice(layout: tuple[Path, Path], tmp_path: Path) -> None:
    problems, kernels = layout
    items = pair(problems, kernels).items
    out = tmp_path / "results.jsonl"
    records = RecordFile(out)
    records.append(record_for(items[0], None, result(True, 1.5, 1.1)))
    records.append(record_for(items[1], None, result(False, error=ErrorKind.WRONG_OUTPUT)))
    with out.open("ab") as f:  # a kill in the middle of a line, inside a multi-byte character
        f.write('{"key": "level1/problem23/sample1", "result": {"message": "é'.encode()[:-1])
    again = RecordFile(out)
    assert set(again.records) == {items[0].key, items[1].key}
    assert again.done(items[0], None) and not again.done(items[2], None)
    assert out.read_bytes().endswith(b"}\n")  # the torn line is gone; appending goes on from a whole line
    touch(items[0].kernel, "# an edited kernel\n")
    assert not RecordFile(out).done(items[0], None)  # a changed kernel is judged again


def test_summary_fast_p_and_geomeans() -> None:
    results = [result(True, 2.0, 1.2), result(True, 0.5, 0.4), result(True, 1.6, 1.0),
               result(False, error=ErrorKind.WRONG_OUTPUT), result(False, error=ErrorKind.SPEC_ERROR)]
    records = [_record(i, r) for i, r in enumerate(results)]
    s = summarize(records, wall_s=60.0, judged=5)
    assert s.kernels == 5 and s.correct == 3 and s.correct_rate == pytest.approx(0.6) and s.spec_errors == 1
    assert s.fast_p_eager == {"0": 0.6, "1": 0.4, "1.5": 0.4, "2": 0.0}  # faster than p, strictly
    assert s.fast_p_compile == {"0": 0.6, "1": 0.2, "1.5": 0.0, "2": 0.0}
    assert s.geomean_speedup_eager == pytest.approx(math.exp((math.log(2.0) + math.log(0.5) + math.log(1.6)) / 3))
    assert s.rejected_by == {"wrong_output": 1, "spec_error": 1} and s.kernels_per_min == pytest.approx(5.0)


def _record(i: int, r: EvalResult):  # type: ignore[no-untyped-def]
    from kernelevo.evaluation.judge.batch import BatchRecord

    return BatchRecord(key=f"k{i}", level=1, problem_id=i, problem="p", sample=0, problem_path="p", kernel_path="k",
                       spec_sha256=None, kernel_sha256="0", judged_at="now", result=r)
