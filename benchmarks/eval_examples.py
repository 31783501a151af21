"""Evaluate every example's seed kernel and report what the evaluator measured and what it cost.

Per example: eager, torch.compile and kernel medians (ms), speedups, the fraction of the
roofline (its floor, read, copy or compute: kernelevo.evaluation.judge.hardware.Ceilings.floor), and
the evaluation's own cost split. The warm evaluation is a second candidate on an
already-started judge, with a kernel source changed by a comment so that Triton compiles it
afresh (the 3 s target includes compilation). Then one example is evaluated five more times to
show the spread of repeated timings: two kernels whose medians differ by less than it are a tie.

    python benchmarks/eval_examples.py [--out benchmarks/results/eval_examples-h200.json]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import statistics
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kernelevo.evaluation import EvalOptions, EvalResult, Evaluator  # noqa: E402
from kernelevo.spec import read_spec  # noqa: E402

EXAMPLES = ["gelu", "softmax", "rmsnorm", "matmul_epilogue"]


def with_nonce(source: str, nonce: str) -> str:
    """The same kernel, with a comment inside each @triton.jit body so Triton's cache misses."""
    return re.sub(r"(@triton\.jit\s*\ndef [^\n]*:\n)", rf"\1    # nonce {nonce}\n", source)


def summary(result: EvalResult) -> dict:
    return json.loads(result.model_dump_json())


def bench_example(name: str, options: EvalOptions, console: Console) -> dict:
    spec = read_spec(str(ROOT / "examples" / name / "spec.py"))
    seed = (ROOT / "examples" / name / "seed.py").read_text()
    started = time.perf_counter()
    with Evaluator(spec, options) as evaluator:
        judge_start_s = time.perf_counter() - started
        first = evaluator.evaluate(with_nonce(seed, "first"))
        warm_start = time.perf_counter()
        warm = evaluator.evaluate(with_nonce(seed, f"warm-{time.time_ns()}"))
        warm_wall_s = time.perf_counter() - warm_start
    console.print(f"{name}: {warm.headline()}")
    if not warm.ok:
        console.print(warm.message)
    return {"example": name, "judge_start_s": judge_start_s, "first": summary(first), "warm": summary(warm),
            "warm_wall_s": warm_wall_s}


def spread(name: str, options: EvalOptions, repeats: int) -> dict:
    spec = read_spec(str(ROOT / "examples" / name / "spec.py"))
    seed = (ROOT / "examples" / name / "seed.py").read_text()
    with Evaluator(spec, options) as evaluator:
        medians = [evaluator.evaluate(seed).kernel for _ in range(repeats)]
    values = [t.median_ms for t in medians if t is not None]
    mid = statistics.median(values)
    return {"example": name, "medians_ms": values, "spread_ms": max(values) - min(values),
            "relative_spread": (max(values) - min(values)) / mid}


def table(rows: list[dict]) -> Table:
    t = Table(title="example seeds on this machine (warm judge; compile included)")
    for col in ("example", "eager ms", "compile ms", "kernel ms", "x eager", "x compile", "roofline",
                "wall s", "child start", "compile", "correct.", "timing"):
        t.add_column(col, justify="right")
    for row in rows:
        w = row["warm"]

        def ms(timing: dict | None) -> str:
            return "-" if not timing else f"{timing['median_ms']:.4f}"

        def x(v: float | None) -> str:
            return "-" if v is None else f"{v:.2f}"

        roof = w.get("roofline") or {}
        c = w["costs"]
        t.add_row(row["example"], ms(w["eager"]), ms(w["compiled"]), ms(w["kernel"]), x(w["speedup_eager"]),
                  x(w["speedup_compile"]), "-" if roof.get("fraction") is None else f"{roof['fraction']:.0%}",
                  f"{row['warm_wall_s']:.2f}", f"{c['child_start_s']:.2f}", f"{c['compile_s']:.2f}",
                  f"{c['correctness_s']:.2f}", f"{c['timing_s']:.2f}")
    return t


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=None)
    parser.add_argument("--device", default="auto")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    console = Console(width=160)
    options = EvalOptions(device=args.device)
    rows = [bench_example(name, options, console) for name in EXAMPLES]
    noise = spread("softmax", options, args.repeats)
    env = rows[0]["warm"]["environment"]
    report = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "environment": env,
              "examples": rows, "spread": noise}
    console.print(table(rows))
    console.print(f"spread of {args.repeats} repeated timings of softmax: medians {noise['medians_ms']} ms, "
                  f"max - min = {noise['spread_ms']:.4f} ms ({noise['relative_spread']:.1%})")
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=2))
        console.print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
