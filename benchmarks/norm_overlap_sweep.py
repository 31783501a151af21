"""The norm family's ``overlap`` variant swept over its three knobs on a GPU, beside ``split`` (its two-pass
reference) and ``l2``: does one persistent launch that reduces the rows ahead while normalizing row r reach
the memory-bound floor (input read once from DRAM) that split's two reads cap at 2/3?

For each spec, every combination of ``block`` (elements per tile, so the number of atomic tickets),
``AHEAD_KIB`` (input reduced ahead) and ``PROGRAMS`` is judged by one in-process evaluator with racing
off (every candidate timed in full).

    python benchmarks/norm_overlap_sweep.py --specs layernorm,groupnorm,batchnorm2d --out sweep.json
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import itertools
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from eval_profile import judge_all  # noqa: E402

from kernelevo.evaluation import EvalOptions  # noqa: E402
from kernelevo.spec import read_spec  # noqa: E402
from kernelevo.variation.seeding.families import family_seeds  # noqa: E402
from kernelevo.variation.seeding.families.tracer import trace  # noqa: E402

SUITE = ROOT / "benchmarks" / "suite"


def variants(overlap: str, blocks: list[int], lags: list[int], programs: list[int]) -> list[tuple[str, str]]:
    """The overlap seed with its knobs replaced (``block = 4096``, ``AHEAD_KIB = 8192``, ``PROGRAMS = 1056``)."""
    assert "block = 4096" in overlap and "AHEAD_KIB = 8192 " in overlap and "PROGRAMS = 1056 " in overlap
    return [(f"overlap block={b} AHEAD_KIB={lag} PROGRAMS={p}",
             overlap.replace("block = 4096", f"block = {b}").replace("AHEAD_KIB = 8192 ", f"AHEAD_KIB = {lag} ")
             .replace("PROGRAMS = 1056 ", f"PROGRAMS = {p} "))
            for b, lag, p in itertools.product(blocks, lags, programs)]


def sweep(name: str, blocks: list[int], lags: list[int], programs: list[int]) -> dict[str, Any]:
    spec = read_spec(str(SUITE / f"{name}.py"))
    seeds = dict(family_seeds(name, trace(spec)).seeds)
    candidates = [(v, seeds[f"{name}-family-norm-{v}"]) for v in ("split", "l2")]
    candidates += variants(seeds[f"{name}-family-norm-overlap"], blocks, lags, programs)
    print(f"{name}: {len(candidates)} candidates", flush=True)
    row = asyncio.run(judge_all(spec, [s for _, s in candidates], EvalOptions(racing=False), 1, False, False))
    rows = [{"candidate": label, "ok": v["ok"], "error": v["error"], "kernel_ms": v["kernel_ms"]}
            for (label, _), v in zip(candidates, row["verdicts"], strict=True)]
    for r in rows:
        print(f"  {r['candidate']:45s} {r['kernel_ms'] or r['error']}", flush=True)
    timed = [r for r in rows if r["ok"] and r["kernel_ms"]]
    best = min((r for r in timed if r["candidate"].startswith("overlap")), key=lambda r: r["kernel_ms"], default=None)
    split = next((r for r in timed if r["candidate"] == "split"), None)
    return {"spec": name, "best_overlap": best, "split_ms": split and split["kernel_ms"], "rows": rows,
            "wall_s": row["wall_s"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--specs", default="layernorm,groupnorm,batchnorm2d")
    parser.add_argument("--blocks", default="4096,16384,32768")
    parser.add_argument("--ahead", default="0,8192,32768,65536")
    parser.add_argument("--programs", default="528,1056,2112")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()

    def ints(text: str) -> list[int]:
        return [int(x) for x in text.split(",")]

    import torch
    report: dict[str, Any] = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                              "device": torch.cuda.get_device_name() if torch.cuda.is_available() else "cpu",
                              "specs": []}
    for name in args.specs.split(","):
        report["specs"].append(sweep(name, ints(args.blocks), ints(args.ahead), ints(args.programs)))
        args.out.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
