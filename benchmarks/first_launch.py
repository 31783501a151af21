"""What a fresh candidate child spends on a kernel's first launch, when the kernel was compiled ahead.

The judge's profile (``eval_profile.py``) puts most of a candidate's time inside its
correctness calls, and most of that in the first call of each variant. This script finds
where, function by function: one process compiles and runs an example's kernels into a
Triton cache (as the compile-ahead path leaves it), then a fresh process with that cache
(as the candidate's child is) makes its CUDA context and runs each correctness variant once,
under cProfile, with Triton's per-process caches either cold (as today) or warmed first
(``--warm``: what the child could do while it waits for its candidate).

    python benchmarks/first_launch.py --example gelu --out first_launch.json
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def run_variants(example: str, seed_file: str, profile: bool, warm: bool) -> dict:
    """In this process: context, module, each variant's first call (timed, optionally profiled)."""
    started = time.perf_counter()
    import torch
    import triton  # noqa: F401

    from kernelevo.evaluation.child.candidate_module import exec_candidate
    from kernelevo.spec import read_spec
    from kernelevo.spec.loaded import LoadedSpec

    imported = time.perf_counter()
    torch.cuda.init()
    torch.empty(1, device="cuda")
    torch.cuda.synchronize()
    context = time.perf_counter()
    warm_s = 0.0
    if warm:
        from kernelevo.evaluation.child.triton_warm import warm_triton

        warm_s = warm_triton()
    spec = read_spec(str(ROOT / "examples" / example / "spec.py"))
    problem = LoadedSpec(spec)
    module = exec_candidate((ROOT / "examples" / example / seed_file).read_text())
    report: dict = {"import_s": imported - started, "context_s": context - imported, "warm_s": warm_s, "variants": {}}
    for variant in spec.correctness_variants(gpu=True):
        model = problem.model(variant, 0, torch.device("cuda"), cls=module.ModelNew)
        inputs = problem.inputs(variant, 1, torch.device("cuda"))
        torch.cuda.synchronize()
        profiler = cProfile.Profile() if profile else None
        start = time.perf_counter()
        if profiler:
            profiler.enable()
        with torch.no_grad(), problem.variant(variant):
            model(*inputs)
        torch.cuda.synchronize()
        if profiler:
            profiler.disable()
        first = time.perf_counter() - start
        start = time.perf_counter()
        with torch.no_grad(), problem.variant(variant):
            model(*inputs)
        torch.cuda.synchronize()
        second = time.perf_counter() - start
        row: dict = {"first_s": first, "second_s": second}
        if profiler:
            text = io.StringIO()
            pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(30)
            row["profile"] = text.getvalue().splitlines()[-45:]
        report["variants"][variant] = row
    return report


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--example", default="gelu")
    parser.add_argument("--seed-file", default="seed.py")
    parser.add_argument("--child", choices=["fill", "cold", "warm"], default=None, help=argparse.SUPPRESS)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    if args.child:
        report = run_variants(args.example, args.seed_file, profile=args.child != "fill", warm=args.child == "warm")
        print(json.dumps(report))
        return
    results = {}
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "TRITON_CACHE_DIR": cache}
        for mode in ("fill", "cold", "warm", "cold", "warm"):
            out = subprocess.run([sys.executable, __file__, "--example", args.example, "--seed-file", args.seed_file,
                                  "--child", mode], env=env, capture_output=True, text=True, check=True)
            report = json.loads(out.stdout.strip().splitlines()[-1])
            results.setdefault(mode, []).append(report)
            firsts = ", ".join(f"{v} {r['first_s'] * 1e3:.1f} ms (then {r['second_s'] * 1e3:.2f})"
                               for v, r in report["variants"].items())
            print(f"{mode}: context {report['context_s']:.2f} s, warm {report['warm_s']:.3f} s; first calls: {firsts}",
                  flush=True)
    for mode in ("cold", "warm"):
        first = next(iter(results[mode][0]["variants"].values()))
        print(f"--- {mode}, first variant's first call, by cumulative time:", *first.get("profile", [])[:40], sep="\n")
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
