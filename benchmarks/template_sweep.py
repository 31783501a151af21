"""The template space of a seed swept exhaustively on a GPU: the ground truth a search's best is measured against.

``sweep``: for each spec, the seed a run starts from (torch.compile's kernels at the timed sizes,
``kernelevo.variation.seeding.compile_seeds``) and every combination of its tunables within ``--steps``
of the seed's values (``kernelevo.variation.moves.template.space``), judged by one in-process evaluator
with racing off (every candidate timed in full). ``compare``: the sweep's best against a
search's best-so-far curve (``search_examples.py`` records it): after how many evaluations the
search reached 95% of the sweep's best speed, against the issue's target of 25% of the sweep's
evaluations. The two are timed by different judges of the same GPU, so their medians differ by
the measurement's own noise (a few percent between children, benchmarks/README.md).

    python benchmarks/template_sweep.py sweep --specs benchmarks/suite/gelu_tanh.py --steps 2 --out sweep.json
    python benchmarks/template_sweep.py compare sweep.json suite_search.json
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import logging
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from eval_profile import judge_all  # noqa: E402

from kernelevo.evaluation import EvalOptions  # noqa: E402
from kernelevo.spec import read_spec  # noqa: E402
from kernelevo.variation.moves import template  # noqa: E402
from kernelevo.variation.seeding.compile_seeds import inductor_seeds  # noqa: E402

REACH = 0.95  # of the sweep's best speed
WITHIN = 0.25  # of the sweep's evaluations


def sweep(path: Path, steps: int, device: str) -> dict[str, Any]:
    spec = read_spec(str(path))
    name, seed = inductor_seeds(spec, device=device, structures=[]).seeds[0]
    space = template.space(seed, steps)
    sources = [seed] + [s for s, _ in space]
    labels = ["seed"] + [label for _, label in space]
    print(f"{spec.name}: seed {name}, {len(sources)} candidates within {steps} steps", flush=True)
    row = asyncio.run(judge_all(spec, sources, EvalOptions(device=device, racing=False), 1, False, False))
    timed = [(v["kernel_ms"], label) for v, label in zip(row["verdicts"], labels, strict=True)
             if v["ok"] and v["kernel_ms"]]
    best_ms, best_label = min(timed)
    return {"spec": spec.name, "seed": name, "steps": steps, "evaluations": len(sources),
            "correct": len(timed), "best_ms": best_ms, "best": best_label,
            "seed_ms": row["verdicts"][0]["kernel_ms"], "wall_s": row["wall_s"],
            "evals_per_min": row["evals_per_min"],
            "sweep": [{"change": label, "ok": v["ok"], "error": v["error"], "kernel_ms": v["kernel_ms"]}
                      for v, label in zip(row["verdicts"], labels, strict=True)]}


def compare(swept: dict[str, Any], search: dict[str, Any]) -> dict[str, Any]:
    """When the search's best-so-far first came within ``REACH`` of the sweep's best speed."""
    target_ms = swept["best_ms"] / REACH
    reached = next((int(n) for n, ms in search["curve"] if ms <= target_ms), None)
    budget = WITHIN * swept["evaluations"]
    return {"spec": swept["spec"], "sweep_evaluations": swept["evaluations"], "sweep_best_ms": swept["best_ms"],
            "search_evaluations": search["evaluations"], "search_best_ms": search["curve"][-1][1]
            if search["curve"] else None,
            "search_reached_95pct_at": reached, "budget_25pct": budget,
            "met": reached is not None and reached <= budget}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("sweep")
    run.add_argument("--specs", required=True, help="spec files, comma-separated")
    run.add_argument("--steps", default="2", help="steps from the seed's values: one number, or one per spec")
    run.add_argument("--device", default="cuda")
    run.add_argument("--out", required=True)
    cmp = sub.add_parser("compare")
    cmp.add_argument("sweep")
    cmp.add_argument("search", help="search_examples.py's report (with each spec's curve)")
    cmp.add_argument("--out", default=None)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    if args.command == "sweep":
        paths = [Path(p) for p in args.specs.split(",")]
        steps = [int(s) for s in args.steps.split(",")]
        steps = steps * len(paths) if len(steps) == 1 else steps
        report: dict[str, Any] = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "specs": []}
        for path, n in zip(paths, steps, strict=True):
            report["specs"].append(sweep(path, n, args.device))
            r = report["specs"][-1]
            print(f"{r['spec']}: {r['evaluations']} in {r['wall_s']:.0f} s, {r['correct']} correct; best "
                  f"{r['best_ms']:.4f} ms ({r['best']}), seed {r['seed_ms']}", flush=True)
            Path(args.out).write_text(json.dumps(report, indent=1))  # after each spec: a run cut short keeps it
        return
    swept = json.loads(Path(args.sweep).read_text())
    searched = {r["example"]: r for r in json.loads(Path(args.search).read_text())["examples"]}
    rows = [compare(s, searched[s["spec"]]) for s in swept["specs"] if s["spec"] in searched]
    for r in rows:
        print(json.dumps(r))
    if args.out:
        Path(args.out).write_text(json.dumps({"sweep": args.sweep, "search": args.search, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
