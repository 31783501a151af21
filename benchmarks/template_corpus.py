"""How many of the template operator's mutants are correct, on a corpus of Triton kernels in many styles.

Every kernel of ``tests/variation/triton_corpus`` (each names its spec on a ``Spec:`` line)
is evaluated, then every single-step neighbour the operator's sweep proposes and
``--random`` draws of its mutation (one or two parameters, sometimes several steps away); with
``--moves``, instead, every structural move the kernel offers (pipelining, eviction hints,
grid-stride loops, epilogue fusion, autotuning: ``kernelevo.variation.moves.restructure``).
The evaluator judges each as it judges the search's candidates; timing is cut to one
repetition, since only the verdict counts here. On a machine without a GPU the kernels run
in Triton's CPU interpreter: the verdicts are the point, no time is a GPU speed.

    python benchmarks/template_corpus.py --out benchmarks/results/template_corpus-cpu.json
    python benchmarks/template_corpus.py --moves --out benchmarks/results/template_corpus-moves-cpu.json
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kernelevo.evaluation import EvalOptions, Evaluator  # noqa: E402
from kernelevo.spec import read_spec  # noqa: E402
from kernelevo.variation.moves.restructure import moves  # noqa: E402
from kernelevo.variation.moves.template import find_tunables, mutate, sweep  # noqa: E402

CORPUS = ROOT / "tests" / "variation" / "triton_corpus"


def spec_of(kernel: Path) -> Path:
    match = re.search(r"^Spec: (\S+)", kernel.read_text(), re.M)
    if match is None:
        raise SystemExit(f"{kernel.name} names no spec (a line 'Spec: examples/NAME/spec.py' in its docstring)")
    return ROOT / match.group(1)


def verdict_options(device: str) -> EvalOptions:
    """The evaluator's checks as the search has them, with one timing repetition (the verdict is what counts)."""
    return EvalOptions(device=device, baselines=["eager"], aot_metadata=False, warmup_reps=0, warmup_ms=0,
                       min_reps=1, min_measure_ms=0, max_reps=1, timing_input_sets=1, floor_check=False)


def mutants(source: str, draws: int, seed: int) -> list[tuple[str, str]]:
    """The sweep's single-step neighbours, then ``draws`` random mutations not already among them."""
    found = dict((new, what) for new, what in sweep(source))
    rng = random.Random(seed)
    for _ in range(draws):
        drawn = mutate(source, rng)
        if drawn is not None and drawn[0] not in found:
            found[drawn[0]] = drawn[1]
    return list(found.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="auto")
    parser.add_argument("--random", type=int, default=4, help="random mutations per kernel, on top of the sweep")
    parser.add_argument("--moves", action="store_true", help="each structural move of each kernel, not its mutants")
    parser.add_argument("--only", default="", help="comma-separated kernel names")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    kernels = sorted(CORPUS.glob("*.py"))
    if args.only:
        kernels = [k for k in kernels if k.stem in args.only.split(",")]
    by_spec: dict[Path, list[Path]] = {}
    for kernel in kernels:
        by_spec.setdefault(spec_of(kernel), []).append(kernel)
    rows: list[dict[str, Any]] = []
    started = time.monotonic()
    for spec, members in by_spec.items():
        with Evaluator(read_spec(str(spec)), verdict_options(args.device)) as evaluator:
            for kernel in members:
                source = kernel.read_text()
                seed = evaluator.evaluate(source)
                row: dict[str, Any] = {"kernel": kernel.stem, "spec": spec.parent.name,
                                       "tunables": [f"{t.key}={t.value}" for t in find_tunables(source)],
                                       "seed_correct": bool(seed.correct), "seed_error": seed.error,
                                       "interpreted": seed.interpreted, "mutants": 0, "correct": 0, "rejected": []}
                changed = [(m.apply(), m.label) for m in moves(source)] if args.moves else \
                    mutants(source, args.random, seed=len(rows))
                for new, what in changed:
                    result = evaluator.evaluate(new)
                    row["mutants"] += 1
                    if result.correct:
                        row["correct"] += 1
                    else:
                        row["rejected"].append({"change": what, "error": result.error,
                                                "message": (result.message or "")[:300]})
                rows.append(row)
                print(f"{kernel.stem:32s} seed {'ok' if seed.correct else seed.error}  "
                      f"{row['correct']}/{row['mutants']} {'moves' if args.moves else 'mutants'} correct", flush=True)
    total, correct = sum(r["mutants"] for r in rows), sum(r["correct"] for r in rows)
    errors = Counter(str(x["error"]) for r in rows for x in r["rejected"])
    summary = {"kernels": len(rows), "seeds_correct": sum(r["seed_correct"] for r in rows), "mutants": total,
               "mutants_correct": correct, "fraction_correct": round(correct / total, 4) if total else None,
               "rejections_by_reason": dict(errors), "minutes": round((time.monotonic() - started) / 60, 1)}
    print(json.dumps(summary, indent=1))
    if args.out:
        import torch

        device = (torch.cuda.get_device_name() if torch.cuda.is_available()
                  else f"CPU ({platform.machine()}, {os.cpu_count()} cores), Triton interpreter")
        Path(args.out).write_text(json.dumps({
            "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "device": device,
            "torch": torch.__version__, "changes": "structural moves" if args.moves else "template mutants",
            "random_draws_per_kernel": None if args.moves else args.random, "summary": summary, "kernels": rows,
        }, indent=1) + "\n")


if __name__ == "__main__":
    main()
