"""CUDA seeds on a GPU: what the evaluator measured, what compiling cost, cold and cached.

Per CUDA example (``examples/*_cuda``), each seed in one warm judge: kernel, eager and
torch.compile medians, speedups, the roofline fraction, and per kernel its registers,
spills and shared memory as the GPU's build reports them. Then the compile cost per
candidate, cold and cached: NVRTC through CuPy (a fresh ``CUPY_CACHE_DIR``, then the same
one) and ``load_inline`` (a fresh kernelevo cache, then the same one), each in a new judge
so nothing but the disk caches carries over.

    python benchmarks/cuda_eval.py --out benchmarks/results/cuda_eval-h200.json

The offline search on the same examples is benchmarks/search_examples.py
(``--examples gelu_cuda,softmax_cuda,matmul_epilogue_cuda``); the CUDA attacks are
``pytest -m gpu tests/evaluation/adversarial -k cuda``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kernelevo.evaluation import EvalOptions, EvalResult, Evaluator  # noqa: E402
from kernelevo.spec import read_spec  # noqa: E402

EXAMPLES = ["gelu_cuda", "softmax_cuda", "matmul_epilogue_cuda"]


def row(example: str, seed: str, result: EvalResult) -> dict[str, Any]:
    kernels = [{"name": k.name, "registers": k.registers, "spill_bytes": k.spills, "shared_bytes": k.shared_bytes,
                "max_threads_per_block": k.max_threads_per_block, "launches": k.launches, "from": k.source}
               for k in result.kernels]
    builds = [{"form": b.form, "compiler": b.compiler, "compile_s": b.compile_s, "cached": b.cached,
               "ptx_kept": bool(b.ptx), "sass_kept": bool(b.sass), "error": b.error} for b in result.cuda]
    return {
        "example": example, "seed": seed, "correct": result.ok, "error": result.error, "message": result.message[:500],
        "kernel_ms": result.kernel.median_ms if result.kernel else None,
        "kernel_iqr_ms": result.kernel.iqr_ms if result.kernel else None,
        "eager_ms": result.eager.median_ms if result.eager else None,
        "compile_ms": result.compiled.median_ms if result.compiled else None,
        "speedup_eager": result.speedup_eager, "speedup_compile": result.speedup_compile,
        "roofline_fraction": result.roofline.fraction if result.roofline else None,
        "kernels": kernels, "builds": builds, "costs": result.costs.model_dump(),
        "device": result.environment.device_name if result.environment else None,
    }


def seeds_of(example: str) -> list[Path]:
    return sorted((ROOT / "examples" / example).glob("seed*.py"))


def evaluate_seeds(example: str, options: EvalOptions, console: Console) -> list[dict[str, Any]]:
    spec = read_spec(str(ROOT / "examples" / example / "spec.py"))
    rows = []
    with Evaluator(spec, options) as evaluator:
        for seed in seeds_of(example):
            result = evaluator.evaluate(seed.read_text())
            console.print(f"{example}/{seed.name}: {result.headline()}")
            rows.append(row(example, seed.name, result))
    return rows


def compile_cost(example: str, seed: Path, options: EvalOptions, console: Console) -> dict[str, Any]:
    """One candidate's compile time in a fresh judge with empty caches, then with those caches warm."""
    spec = read_spec(str(ROOT / "examples" / example / "spec.py"))
    times: dict[str, Any] = {"example": example, "seed": seed.name}
    with tempfile.TemporaryDirectory(prefix="kernelevo-cuda-cache-") as cache:
        os.environ["CUPY_CACHE_DIR"] = str(Path(cache) / "cupy")
        os.environ["KERNELEVO_CACHE_DIR"] = str(Path(cache) / "kernelevo")
        for label in ("cold", "cached"):
            started = time.perf_counter()
            with Evaluator(spec, options) as evaluator:
                result = evaluator.evaluate(seed.read_text())
            times[label] = {"compile_s": result.costs.compile_s,
                            "build_s": [b.compile_s for b in result.cuda if not b.ahead_of_time],
                            "extension_cached": [b.cached for b in result.cuda if b.form == "load_inline"],
                            "wall_s": time.perf_counter() - started, "correct": result.ok}
            console.print(f"compile {example}/{seed.name} {label}: {result.costs.compile_s:.2f} s "
                          f"({result.headline()})")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", default=",".join(EXAMPLES))
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    console = Console()
    options = EvalOptions(device="cuda")
    examples = [e for e in args.examples.split(",") if e]
    seeds = [r for e in examples for r in evaluate_seeds(e, options, console)]
    cheap = options.model_copy(update={"baselines": ["eager"]})
    compiles = [compile_cost(e, s, cheap, console) for e in examples for s in seeds_of(e)]
    table = Table(title="CUDA seeds")
    for column in ("seed", "verdict", "kernel ms", "vs eager", "vs compile", "roofline", "regs", "smem B"):
        table.add_column(column)
    for r in seeds:
        k = r["kernels"][0] if r["kernels"] else {}
        table.add_row(f"{r['example']}/{r['seed']}", "correct" if r["correct"] else str(r["error"]),
                      f"{r['kernel_ms']:.4g}" if r["kernel_ms"] else "-",
                      f"{r['speedup_eager']:.2f}x" if r["speedup_eager"] else "-",
                      f"{r['speedup_compile']:.2f}x" if r["speedup_compile"] else "-",
                      f"{r['roofline_fraction']:.0%}" if r["roofline_fraction"] else "-",
                      str(k.get("registers", "-")), str(k.get("shared_bytes", "-")))
    console.print(table)
    report = {"date": dt.datetime.now(dt.UTC).isoformat(), "seeds": seeds, "compile": compiles}
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=2, default=str))
        console.print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
