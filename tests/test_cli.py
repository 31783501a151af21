"""The command line as a person uses it: exit codes, readable and JSON output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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
