"""A KernelBench-layout batch of at least 40 kernels through ``kernelevo eval --kernelbench``.

The problems are this project's four examples, laid out as KernelBench does
(``level1/{P}_{Name}.py``); the kernels, named as KernelBench's generation scripts name
them (``level_1_problem_{P}_sample_{S}_kernel.py``), are every example's seeds, template
mutants of them (made with a fixed random seed) and the adversarial suite's kernels that
the default checks must reject (against the GELU problem; the slow ones, which wait for a
time limit, left out). The batch runs once per ``--modes`` entry (``ray:N`` for N GPUs
through Ray, ``local`` in-process), each with an empty kernelevo cache, as a user's first
sweep. Reported: kernels per minute and the summary of each run; verdicts checked: each
seed correct, each adversarial kernel rejected for its named reason, and every verdict
the same in every mode.

    python benchmarks/batch_kernelbench.py --modes local --out benchmarks/results/batch_kernelbench-h100.json
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mutants import mutants  # noqa: E402

from kernelevo.spec import read_spec  # noqa: E402

PROBLEMS = [(1, "GELU", "gelu"), (2, "Softmax", "softmax"), (3, "RMSNorm", "rmsnorm"),
            (4, "MatmulBiasGELU", "matmul_epilogue")]


def adversarial_cases() -> list[Any]:
    """The suite's cases that run under the default checks on a GPU and end within seconds."""
    path = ROOT / "tests" / "evaluation" / "adversarial" / "cases.py"
    spec = importlib.util.spec_from_file_location("adversarial_cases", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["adversarial_cases"] = module
    spec.loader.exec_module(module)
    return [c for c in module.CASES if c.static_checks and c.runtime_checks and not c.cpu_only and not c.slow
            and not c.bug and c.spec == module.GELU_SPEC]


def build(folder: Path, mutants_per_seed: int) -> dict[str, dict[str, Any]]:
    """Write the layout under ``folder``; return each kernel's key and what its verdict must be."""
    problems, kernels = folder / "KernelBench" / "level1", folder / "generations"
    problems.mkdir(parents=True)
    kernels.mkdir()
    expected: dict[str, dict[str, Any]] = {}

    def add(pid: int, source: str, kind: str, must: str | None) -> None:
        sample = sum(1 for k in expected if k.startswith(f"level1/problem{pid}/"))
        (kernels / f"level_1_problem_{pid}_sample_{sample}_kernel.py").write_text(source)
        expected[f"level1/problem{pid}/sample{sample}"] = {"kind": kind, "must": must}

    for pid, name, example in PROBLEMS:
        spec_path = ROOT / "examples" / example / "spec.py"
        shutil.copy(spec_path, problems / f"{pid}_{name}.py")
        for _, seed in read_spec(str(spec_path)).seed_sources():
            add(pid, seed, "seed", "correct")
            for mutant in mutants(seed, mutants_per_seed + 1, seed=pid)[1:]:
                add(pid, mutant, "mutant", None)
    for case in adversarial_cases():
        add(1, case.source(), f"adversarial:{case.name}", case.expected.value)
    return expected


def run_batch(folder: Path, mode: str, out: Path) -> dict[str, Any]:
    command = [sys.executable, "-m", "kernelevo.cli", "eval", "--kernelbench", str(folder / "KernelBench"),
               str(folder / "generations"), "--out", str(out)]
    command += ["--no-ray"] if mode == "local" else ["--workers", mode.split(":")[1]]
    with tempfile.TemporaryDirectory(prefix="kernelevo-cache-") as cache:
        env = {**os.environ, "KERNELEVO_CACHE_DIR": cache,
               "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=1500)
        wall = time.perf_counter() - started
    summary = json.loads(out.with_name(out.name.removesuffix(".jsonl") + ".summary.json").read_text())
    verdicts = {}
    for line in out.read_text().splitlines():
        record = json.loads(line)
        verdicts[record["key"]] = "correct" if record["result"]["correct"] else record["result"]["error"]
    return {"mode": mode, "exit": done.returncode, "command_wall_s": wall, "summary": summary,
            "verdicts": verdicts, "log_tail": (done.stdout + done.stderr)[-3000:]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", default="local", help="comma-separated: local, ray:1, ray:2")
    parser.add_argument("--mutants", type=int, default=3, help="template mutants per seed")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    console = Console()
    runs = []
    with tempfile.TemporaryDirectory(prefix="kernelevo-batch-") as tmp:
        folder = Path(tmp)
        expected = build(folder, args.mutants)
        console.print(f"{len(expected)} kernels over {len(PROBLEMS)} problems")
        for mode in args.modes.split(","):
            run = run_batch(folder, mode, folder / f"{mode.replace(':', '-')}.jsonl")
            runs.append(run)
            s = run["summary"]
            console.print(f"{mode}: {s['kernels_per_min']:.1f} kernels/min over {s['wall_s']:.0f} s, "
                          f"{s['correct']} of {s['kernels']} correct (exit {run['exit']})")
    wrong = {}
    for key, want in expected.items():
        got = {run["mode"]: run["verdicts"].get(key) for run in runs}
        if (want["must"] is not None and any(v != want["must"] for v in got.values())) or len(set(got.values())) > 1:
            wrong[key] = {"kernel": want["kind"], "expected": want["must"], "got": got}
    table = Table(title="KernelBench-layout batch")
    for column in ("mode", "kernels", "correct", "kernels/min", "wall s", "geomean vs eager", "geomean vs compile",
                   "fast_1 eager"):
        table.add_column(column, justify="right")
    for run in runs:
        s = run["summary"]
        table.add_row(run["mode"], str(s["kernels"]), str(s["correct"]), f"{s['kernels_per_min']:.1f}",
                      f"{s['wall_s']:.0f}", f"{s['geomean_speedup_eager'] or 0:.3f}",
                      f"{s['geomean_speedup_compile'] or 0:.3f}", f"{s['fast_p_eager'].get('1', 0):.1%}")
    console.print(table)
    console.print(f"verdicts: {len(expected) - len(wrong)} of {len(expected)} right"
                  + (f"; WRONG: {json.dumps(wrong, indent=1)}" if wrong else ""))
    if args.out:
        import torch

        report = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                  "device": torch.cuda.get_device_name() if torch.cuda.is_available() else "cpu",
                  "gpus": torch.cuda.device_count(), "cpus": os.cpu_count(), "kernels": len(expected),
                  "expected": expected, "wrong_verdicts": wrong, "runs": runs}
        Path(args.out).write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
