"""Which kernel family matches each spec of the suite (`benchmarks/suite/`), with no GPU and no capture.

Each spec's graph is traced in an isolated child on the meta device (`kernelevo.variation.seeding.families.tracer`,
the path seeding takes where torch.compile cannot capture), matched against every family
(`kernelevo.variation.seeding.families`), and the seeds each family writes are named. Matching reads the traced
aten graph only, never a spec's name.

    python benchmarks/family_matches.py > benchmarks/results/family_matches-cpu.json
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from kernelevo.spec import read_spec
from kernelevo.variation.seeding.families import family_seeds
from kernelevo.variation.seeding.families.tracer import trace
from kernelevo.variation.seeding.op_graph import GraphError

SUITE = Path(__file__).parent / "suite"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="*", type=Path, help="spec files (default: the whole suite)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    rows = {}
    for path in args.specs or sorted(SUITE.glob("*.py")):
        spec = read_spec(str(path))
        try:
            graph = trace(spec)
        except GraphError as exc:
            rows[spec.name] = {"graph": str(exc)}
            continue
        found = family_seeds(spec.name, graph)
        rows[spec.name] = {"ops": sorted({n.target for n in graph.calls()}),
                           "seeds": [name for name, _ in found.seeds], "skipped": found.skipped}
    by_family: dict[str, list[str]] = {}
    for name, row in rows.items():
        for seed in row.get("seeds", []):
            family = seed.removeprefix(f"{name}-family-").split("-")[0]
            if name not in by_family.setdefault(family, []):
                by_family[family].append(name)
    json.dump({"by_family": by_family, "specs": rows}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
