"""The grid-stride structural move on a GPU: each spec's seed against its grid-stride versions.

For each spec, the seed (by default the one converted from torch.compile's Triton, which needs a
GPU) and, per grid cap, the seed with every kernel the move applies to turned into a grid-stride
loop (kernelevo.variation.moves.restructure) are judged in one evaluator, against eager and
torch.compile. Reports each version's verdict, time and speedups.

    python benchmarks/grid_stride.py benchmarks/suite/gelu_tanh.py --out benchmarks/results/grid_stride-h200.json
    python benchmarks/grid_stride.py examples/gelu/spec.py --seed examples/gelu/seed.py --device cpu   # interpreter
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge_versions import judge_versions, write_rows  # noqa: E402

from kernelevo.spec import read_spec  # noqa: E402
from kernelevo.variation.moves.restructure import PROGRAMS, moves  # noqa: E402


def strided(source: str, cap: int) -> str | None:
    """``source`` with every kernel the move applies to made a grid-stride loop on a grid capped at ``cap``."""
    labels = [m.label for m in moves(source) if "grid-stride" in m.label and f" {cap} programs" in m.label]
    for label in labels:
        source = next(m for m in moves(source) if m.label == label).apply()
    return source if labels else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="+")
    parser.add_argument("--seed", help="a seed file in place of torch.compile's (one spec)")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = []
    for path in args.specs:
        spec = read_spec(path)
        if args.seed:
            seed = Path(args.seed).read_text()
        else:
            from kernelevo.variation.seeding.compile_seeds import seeds_from_compile

            seed = seeds_from_compile(spec, device=args.device)[0][1]
        versions = {"seed": seed} | {f"grid-stride, {cap} programs": s for cap in PROGRAMS
                                     if (s := strided(seed, cap)) is not None}
        rows += judge_versions(spec, versions, args.device)
        write_rows(args.out, rows)

if __name__ == "__main__":
    main()
