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
    python benchmarks/batch_kernelbench.py --modes ray:1,ray:all --mutants 2   # one GPU, then every GPU

``ray:all`` is every GPU torch sees; a count above that is refused (a local Ray would give the
extra actors GPU ids that do not exist). ``--device cpu`` judges in Triton's interpreter (with
``--problems gelu --no-adversarial``: a check that the script runs, not a GPU figure).
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


def build(folder: Path, mutants_per_seed: int, problems_wanted: list[str] | None = None,
          adversarial: bool = True) -> dict[str, dict[str, Any]]:
    """Write the layout under ``folder`` (the examples in ``problems_wanted``, default all; the adversarial kernels
    only with ``adversarial``); return each kernel's key and what its verdict must be."""
    problems, kernels = folder / "KernelBench" / "level1", folder / "generations"
    problems.mkdir(parents=True)
    kernels.mkdir()
    expected: dict[str, dict[str, Any]] = {}

    def add(pid: int, source: str, kind: str, must: str | None) -> None:
        sample = sum(1 for k in expected if k.startswith(f"level1/problem{pid}/"))
        (kernels / f"level_1_problem_{pid}_sample_{sample}_kernel.py").write_text(source)
        expected[f"level1/problem{pid}/sample{sample}"] = {"kind": kind, "must": must}

    for pid, name, example in PROBLEMS:
        if problems_wanted is not None and example not in problems_wanted:
            continue
        spec_path = ROOT / "examples" / example / "spec.py"
        shutil.copy(spec_path, problems / f"{pid}_{name}.py")
        for _, seed in read_spec(str(spec_path)).seed_sources():
            add(pid, seed, "seed", "correct")
            for mutant in mutants(seed, mutants_per_seed + 1, seed=pid)[1:]:
                add(pid, mutant, "mutant", None)
    for case in adversarial_cases() if adversarial else []:  # they run against the GELU problem (id 1)
        if problems_wanted is None or "gelu" in problems_wanted:
            add(1, case.source(), f"adversarial:{case.name}", case.expected.value)
    return expected


def visible_gpus(device: str) -> list[str]:
    """The names of the GPUs torch sees (none with --device cpu)."""
    if device == "cpu":
        return []
    import torch

    return [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]


def workers(mode: str, device: str, names: list[str]) -> str | None:
    """``ray:N``'s actor count (``ray:all``: every GPU torch sees, one logical GPU on the CPU); None for local."""
    if mode == "local":
        return None
    kind, _, count = mode.partition(":")
    if kind != "ray" or not (count == "all" or count.isdigit()):
        raise SystemExit(f"--modes: {mode!r} is not local, ray:N or ray:all")
    if count == "all":
        return str(len(names) or 1)
    if device != "cpu" and int(count) > len(names):
        raise SystemExit(f"--modes {mode}: torch sees {len(names)} GPU(s) here")
    return count


def run_batch(folder: Path, mode: str, out: Path, device: str, actors: str | None) -> dict[str, Any]:
    command = [sys.executable, "-m", "kernelevo.cli", "eval", "--kernelbench", str(folder / "KernelBench"),
               str(folder / "generations"), "--out", str(out), "--device", device]
    command += ["--no-ray"] if actors is None else ["--workers", actors]
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
    return {"mode": mode, "actors": None if actors is None else int(actors), "exit": done.returncode,
            "command_wall_s": wall, "summary": summary,
            "verdicts": verdicts, "log_tail": (done.stdout + done.stderr)[-3000:]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", default="local", help="comma-separated: local, ray:N (N GPUs), ray:all")
    parser.add_argument("--mutants", type=int, default=3, help="template mutants per seed")
    parser.add_argument("--device", choices=("cuda", "cpu"), default="cuda",
                        help="cpu: Triton's interpreter on logical GPUs (checks the script, measures no GPU)")
    parser.add_argument("--problems", default=None,
                        help="comma-separated examples to lay out (default all: " + ",".join(p[2] for p in PROBLEMS)
                             + ")")
    parser.add_argument("--no-adversarial", action="store_true", help="leave the adversarial kernels out")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    console = Console()
    names = visible_gpus(args.device)
    modes = [(mode, workers(mode, args.device, names)) for mode in args.modes.split(",")]
    wanted = args.problems.split(",") if args.problems else None
    runs: list[dict[str, Any]] = []

    def write(expected: dict[str, dict[str, Any]]) -> dict[str, Any]:
        """The verdicts checked across the modes run so far; the report written (after each mode: a command cut
        short keeps what it measured)."""
        wrong = {}
        for key, want in expected.items():
            got = {run["mode"]: run["verdicts"].get(key) for run in runs}
            differs = len(set(got.values())) > 1
            if (want["must"] is not None and any(v != want["must"] for v in got.values())) or differs:
                wrong[key] = {"kernel": want["kind"], "expected": want["must"], "got": got}
        if args.out:
            report = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                      "device": names[0] if names else "cpu interpreter (logical GPUs): NOT a GPU figure",
                      "gpu_names": names, "gpus": len(names), "cpus": os.cpu_count(), "kernels": len(expected),
                      "modes": [m for m, _ in modes], "expected": expected, "wrong_verdicts": wrong, "runs": runs}
            Path(args.out).write_text(json.dumps(report, indent=2) + "\n")
        return wrong

    wrong: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="kernelevo-batch-") as tmp:
        folder = Path(tmp)
        expected = build(folder, args.mutants, wanted, adversarial=not args.no_adversarial)
        console.print(f"{len(expected)} kernels over {len(wanted or PROBLEMS)} problems")
        for mode, actors in modes:
            run = run_batch(folder, mode, folder / f"{mode.replace(':', '-')}.jsonl", args.device, actors)
            runs.append(run)
            wrong = write(expected)
            s = run["summary"]
            console.print(f"{mode}: {s['kernels_per_min']:.1f} kernels/min over {s['wall_s']:.0f} s, "
                          f"{s['correct']} of {s['kernels']} correct (exit {run['exit']})")
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

if __name__ == "__main__":
    main()
