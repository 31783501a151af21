"""The 'log through lg2' move on a GPU, before and after, judged by the same evaluator in turns.

A kernel and its moved version (every ``tl.log`` as the hardware's ``lg2.approx.f32``:
kernelevo.variation.moves.restructure) are judged in alternation, ``--rounds`` times each, by one evaluator
of the spec (eager and ``torch.compile`` baselines, the roofline): the medians, the floor's fraction and
``torch.compile``'s ratio of every judgement, so that the move's effect is read against the spread of
repeated judgements of one kernel.

    python benchmarks/log_move_ab.py --spec benchmarks/suite/kl_div_loss.py \\
        --kernel tests/variation/gpu_kernels/kl_div_loss_split.py --out benchmarks/results/log_move_ab-h200.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from kernelevo.evaluation import EvalOptions, Evaluator
from kernelevo.records.result import EvalResult
from kernelevo.spec import read_spec
from kernelevo.variation.moves.restructure import moves


def _row(result: EvalResult) -> dict[str, object]:
    roof = result.roofline
    return {"correct": result.correct, "error": result.error, "message": result.message[:300],
            "kernel_ms": result.kernel.median_ms if result.kernel else None,
            "compile_ms": result.compiled.median_ms if result.compiled else None,
            "speedup_compile": result.speedup_compile,
            "floor": roof.floor if roof else None, "fraction": roof.fraction if roof else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", type=Path, required=True)
    parser.add_argument("--kernel", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    before = args.kernel.read_text()
    after = next(m for m in moves(before) if m.label.endswith("log through lg2")).apply()
    runs: dict[str, list[dict[str, object]]] = {"before": [], "after": []}
    with Evaluator(read_spec(str(args.spec)), EvalOptions(baselines=["eager", "compile"])) as evaluator:
        for _ in range(args.rounds):
            for name, source in (("before", before), ("after", after)):
                runs[name].append(_row(evaluator.evaluate(source)))
                print(name, json.dumps(runs[name][-1]), flush=True)
    summary = {name: statistics.median([r["kernel_ms"] for r in rows if r["kernel_ms"] is not None] or [0.0])
               for name, rows in runs.items()}
    report = {"spec": args.spec.name, "kernel": str(args.kernel), "rounds": args.rounds, "runs": runs,
              "median_kernel_ms": summary, "device": _device()}
    print(json.dumps(report["median_kernel_ms"]))
    if args.out:
        args.out.write_text(json.dumps(report, indent=2, default=str))


def _device() -> str:
    import torch

    return torch.cuda.get_device_name() if torch.cuda.is_available() else "cpu"


if __name__ == "__main__":
    main()
