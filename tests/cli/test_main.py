"""The command line as a person uses it: exit codes, readable and JSON output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GELU = ROOT / "examples" / "gelu"


def kernelevo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kernelevo.cli", *args], capture_output=True, text=True,
                          timeout=600, cwd=ROOT)


def test_eval_correct_kernel_json() -> None:
    done = kernelevo("eval", str(GELU / "spec.py"), str(GELU / "seed.py"), "--json", "--device", "cpu")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["correct"] is True and result["interpreted"] is True and result["error"] is None


def test_eval_rejected_kernel_is_readable(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text((GELU / "seed.py").read_text().replace("return out", "return out.double()"))
    done = kernelevo("eval", str(GELU / "spec.py"), str(bad))
    assert done.returncode == 1
    assert "REJECTED" in done.stdout and "wrong_dtype" in done.stdout


def test_what_a_kernel_prints_is_shown_with_its_verdict_not_mixed_into_the_output(tmp_path: Path) -> None:
    noisy = tmp_path / "noisy.py"
    noisy.write_text((GELU / "seed.py").read_text().replace(
        "return out", "print('kernel says hello', flush=True)\n        return out.double()"))
    done = kernelevo("eval", str(GELU / "spec.py"), str(noisy))
    assert done.returncode == 1 and "wrong_dtype" in done.stdout
    verdict, _, shown = done.stdout.partition("the candidate printed while judged")
    assert "kernel says hello" in shown and "kernel says hello" not in verdict + done.stderr
    as_json = kernelevo("eval", str(GELU / "spec.py"), str(noisy), "--json")
    assert "kernel says hello" in json.loads(as_json.stdout)["output"]  # the JSON is not broken by the print


def test_bad_input_exits_2_with_one_line(tmp_path: Path) -> None:
    missing = kernelevo("eval", str(GELU / "spec.py"), str(tmp_path / "none.py"))
    assert missing.returncode == 2 and "not found" in missing.stderr and "Traceback" not in missing.stderr
    broken = tmp_path / "spec.py"
    broken.write_text("KERNELEVO = {'dtype': 'float8'}\n")
    done = kernelevo("spec", str(broken))
    assert done.returncode == 2 and "float8" in done.stderr and "Traceback" not in done.stderr


def test_spec_describes_variants() -> None:
    done = kernelevo("spec", str(GELU / "spec.py"), "--json", "--device", "cpu")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)["report"]
    assert {v["name"] for v in report["variants"]} == {"small", "odd"}


def test_eval_many_kernels_in_one_judge_prints_one_table_and_fails_if_any_is_rejected(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text((GELU / "seed.py").read_text().replace("return out", "return out.double()"))
    done = kernelevo("eval", str(GELU / "spec.py"), str(GELU / "seed.py"), str(GELU / "seed_persistent.py"),
                     str(bad), "--device", "cpu")
    assert done.returncode == 1, done.stderr
    assert "3 kernels against gelu" in done.stdout and "wrong_dtype" in done.stdout
    assert done.stdout.count("correct") == 2 and "not GPU speeds" in done.stdout
    good = kernelevo("eval", str(GELU / "spec.py"), str(GELU / "seed.py"), str(GELU / "seed_persistent.py"),
                     "--device", "cpu", "--json")
    assert good.returncode == 0, good.stderr
    assert [r["result"]["correct"] for r in json.loads(good.stdout)] == [True, True]


def kernelbench_layout(tmp_path: Path) -> tuple[Path, Path]:
    problems, generations = tmp_path / "KernelBench", tmp_path / "generations"
    (problems / "level1").mkdir(parents=True)
    generations.mkdir()
    (problems / "level1" / "1_GELU.py").write_text((GELU / "spec.py").read_text())
    (problems / "level1" / "2_Broken.py").write_text("import torch\n")  # no Model: a spec error, not a crash
    adversarial = ROOT / "tests" / "evaluation" / "adversarial" / "kernels"
    for sample, source in enumerate((GELU / "seed.py", adversarial / "nan_output.py", GELU / "seed_persistent.py")):
        (generations / f"level_1_problem_1_sample_{sample}_kernel.py").write_text(source.read_text())
    (generations / "level_1_problem_2_sample_0_kernel.py").write_text((GELU / "seed.py").read_text())
    return problems, generations


def test_eval_kernelbench_layout_records_summary_and_resume(tmp_path: Path) -> None:
    problems, generations = kernelbench_layout(tmp_path)
    out = tmp_path / "results.jsonl"
    done = kernelevo("eval", "--kernelbench", str(problems), str(generations), "--out", str(out), "--no-ray",
                     "--device", "cpu")
    assert done.returncode == 1, done.stderr  # one wrong kernel, one broken problem
    records = [json.loads(line) for line in out.read_text().splitlines()]
    verdicts = {r["key"]: r["result"]["error"] for r in records}
    assert verdicts == {"level1/problem1/sample0": None, "level1/problem1/sample1": "nan_inf_mismatch",
                        "level1/problem1/sample2": None, "level1/problem2/sample0": "spec_error"}
    summary = json.loads(out.with_name("results.summary.json").read_text())
    assert summary["kernels"] == 4 and summary["correct"] == 2 and summary["interpreted"] is True
    assert summary["fast_p_eager"] == {"0": 0.5} and summary["spec_errors"] == 1
    # Resumed: nothing is judged twice; an added kernel is judged alone.
    (generations / "level_1_problem_1_sample_3_kernel.py").write_text((GELU / "seed.py").read_text())
    again = kernelevo("eval", "--kernelbench", str(problems), str(generations), "--out", str(out), "--no-ray",
                      "--device", "cpu")
    assert "resuming: 4 kernel(s) already judged" in again.stdout
    lines = out.read_text().splitlines()
    assert len(lines) == 5 and json.loads(lines[-1])["key"] == "level1/problem1/sample3"


def test_eval_kernelbench_layout_on_ray(tmp_path: Path) -> None:
    """The same batch through a real local Ray with one (logical) GPU."""
    problems, generations = kernelbench_layout(tmp_path)
    out = tmp_path / "ray.jsonl"
    done = kernelevo("eval", "--kernelbench", str(problems), str(generations), "--out", str(out), "--device", "cpu")
    assert done.returncode == 1 and out.exists(), done.stderr
    verdicts = {json.loads(line)["key"]: json.loads(line)["result"]["error"] for line in out.read_text().splitlines()}
    assert verdicts == {"level1/problem1/sample0": None, "level1/problem1/sample1": "nan_inf_mismatch",
                        "level1/problem1/sample2": None, "level1/problem2/sample0": "spec_error"}


def test_bad_kernelbench_arguments(tmp_path: Path) -> None:
    not_a_dir = kernelevo("eval", "--kernelbench", str(tmp_path / "none"), str(tmp_path))
    assert not_a_dir.returncode == 2 and "is not a directory" in not_a_dir.stderr
    empty = kernelevo("eval", "--kernelbench", str(tmp_path), str(tmp_path))
    assert empty.returncode == 2 and "no kernel named level_L_problem_P_sample_S_kernel.py" in empty.stderr
    a_dir_as_spec = kernelevo("eval", str(tmp_path), str(GELU / "seed.py"))
    assert a_dir_as_spec.returncode == 2 and "is a directory" in a_dir_as_spec.stderr


def test_keep_warm_judges_the_next_command_on_the_started_judge(tmp_path: Path) -> None:
    """The first command starts the warm evaluator; the second finds its judge started; idle, it leaves."""
    import os
    import time

    env = {**os.environ, "KERNELEVO_CACHE_DIR": str(tmp_path)}

    def warm_eval() -> dict:
        done = subprocess.run([sys.executable, "-m", "kernelevo.cli", "eval", str(GELU / "spec.py"),
                               str(GELU / "seed.py"), "--device", "cpu", "--json", "--keep-warm", "0.1"],
                              capture_output=True, text=True, timeout=600, cwd=ROOT, env=env)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    first, second = warm_eval(), warm_eval()
    assert first["correct"] and second["correct"]
    assert first["costs"]["judge_start_s"] > 0 and second["costs"]["judge_start_s"] == 0  # the same judge
    assert list((tmp_path / "warm").glob("*.sock"))
    deadline = time.monotonic() + 60  # idle for 6 s: it closes its judge and removes its socket
    while list((tmp_path / "warm").glob("*.sock")) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not list((tmp_path / "warm").glob("*.sock")) and not list((tmp_path / "warm").glob("*.key"))


def test_an_unexpected_failure_exits_3_not_1_which_means_rejected(monkeypatch, capsys) -> None:
    """A traceback's own exit status, 1, would read as "a rejected kernel" to a script or a test."""
    import importlib

    cli_main = importlib.import_module("kernelevo.cli.main")

    def broken(args, console):
        raise RuntimeError("Ray would not start")

    monkeypatch.setattr(cli_main, "_command", broken)
    assert cli_main.main(["spec", str(GELU / "spec.py")]) == cli_main.EXIT_UNEXPECTED == 3
    err = capsys.readouterr().err
    assert "Traceback" in err and "kernelevo spec failed unexpectedly: RuntimeError: Ray would not start" in err
