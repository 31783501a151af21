"""The epilogue-fusion move on a GPU: a seed against itself with each of its fusions, in one evaluator.

For each ``SPEC=SEED`` pair (a seed file, such as an archived best that launches an in-place
elementwise kernel after its GEMM), the seed and every version the fusion move
(kernelevo.variation.moves.fuse_epilogue) makes of it are judged against eager and torch.compile in
one evaluator. Reports each version's verdict, time and speedups. With ``--tile-steps``, each
version's tiles declared in a kernel's body (inductor's templates) are also moved one step at a
time (kernelevo.variation.source.template_triton), so that a fused kernel is compared with the seed at
the tiles that suit it, and the seed at its own. With ``--moves TEXT``, each structural move whose
label holds TEXT (kernelevo.variation.moves.restructure, e.g. ``warp-specialized``) is judged on the
seed and on each fusion too.

    python benchmarks/fused_epilogue.py \
        benchmarks/suite/gemm_bias_gelu.py=tests/variation/gpu_kernels/gemm_bias_gelu_persistent_tma.py \
        --out benchmarks/results/fused_epilogue-h200.json
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge_versions import judge_versions, write_rows  # noqa: E402

from kernelevo.spec import read_spec  # noqa: E402
from kernelevo.variation.moves.fuse_epilogue import fusions  # noqa: E402
from kernelevo.variation.moves.restructure import moves  # noqa: E402
from kernelevo.variation.moves.template import apply, find_tunables  # noqa: E402
from kernelevo.variation.source.triton_limits import problems  # noqa: E402


def tile_steps(source: str) -> dict[str, str]:
    """``source`` with one in-body tile moved one step, for each such tile and step that can run."""
    found = {}
    for t in find_tunables(source):
        if t.context == "kernel_tile":
            for value in t.neighbours(1):
                moved = apply(source, {t: value})
                if not problems(moved):
                    found[f"{t.name} {t.value} -> {value}"] = moved
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pairs", nargs="+", help="SPEC=SEED")
    parser.add_argument("--tile-steps", action="store_true", help="each version's in-body tiles one step away too")
    parser.add_argument("--moves", help="also each structural move whose label holds this text")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = []
    for pair in args.pairs:
        spec_path, seed_path = pair.split("=", 1)
        spec, seed = read_spec(spec_path), Path(seed_path).read_text()
        versions = {"seed": seed} | {m.label: m.apply() for m in fusions(seed, ast.parse(seed))}
        if args.moves:
            versions |= {f"{name}; {m.label}": m.apply() for name, source in list(versions.items())
                         for m in moves(source) if args.moves in m.label}
        if args.tile_steps:
            versions |= {f"{name}; {step}": moved for name, source in list(versions.items())
                         for step, moved in tile_steps(source).items()}
        rows += judge_versions(spec, versions, args.device, seed=seed_path)
    write_rows(args.out, rows)

if __name__ == "__main__":
    main()
