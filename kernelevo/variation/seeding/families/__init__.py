"""Kernel families: parametric Triton kernels of the project's own, seeded where the reference's traced
graph matches them (never by a spec's name), then tuned by the template operator.

- :mod:`~kernelevo.variation.seeding.families.norm`: layer, group, batch (training), instance, RMS, L1 and L2
  normalizations (resident, looped, split statistics, columns);
- :mod:`~kernelevo.variation.seeding.families.reduce`: sum, mean, max, min over rows or a middle run of dims,
  softmax and log-softmax over rows (row, persistent, split, columns; resident and online softmax);
- :mod:`~kernelevo.variation.seeding.families.losses`: an elementwise expression, per-row reductions of it and a
  mean or sum of everything, and cross-entropy, in one pass over the inputs (persistent, tiles);
- :mod:`~kernelevo.variation.seeding.families.pool`: max and average pooling over 1, 2 or 3 dims, each output tile
  from one read of its inputs (tiles, blocked);
- :mod:`~kernelevo.variation.seeding.families.scan`: cumulative sums and products along rows, reversed or masked
  (rows, chunked).

:func:`family_seeds` asks every family of :data:`FAMILIES` about a graph
(:mod:`~kernelevo.variation.seeding.op_graph`): each that matches writes one seed per variant, named
``<spec>-family-<family>-<variant>``; one that matches but cannot write says why in ``skipped``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from kernelevo.variation.seeding.families.family import Family, FamilyError, FamilySeed
from kernelevo.variation.seeding.families.losses import LossFamily
from kernelevo.variation.seeding.families.norm import NormFamily
from kernelevo.variation.seeding.families.pool import PoolFamily
from kernelevo.variation.seeding.families.reduce import ReduceFamily
from kernelevo.variation.seeding.families.scan import ScanFamily
from kernelevo.variation.seeding.op_graph import GraphError, OpGraph, OpNode

log = logging.getLogger(__name__)

FAMILIES: tuple[Family, ...] = (NormFamily(), ReduceFamily(), LossFamily(), PoolFamily(), ScanFamily())


@dataclass
class FamilySeeds:
    seeds: list[tuple[str, str]] = field(default_factory=list)  # (name, source)
    skipped: dict[str, str] = field(default_factory=dict)  # family -> why it matched but wrote no seed


def matching(graph: OpGraph | None) -> list[str]:
    """The names of the families that match ``graph`` (none where there is no graph)."""
    return [f.name for f in FAMILIES if graph is not None and f.match(graph) is not None]


def family_seeds(spec_name: str, graph: OpGraph | None) -> FamilySeeds:
    """A seed per variant of every family that matches ``graph``; a graph of None (an older capture,
    or none could be traced) matches nothing. Never raises for a family's sake: its reason is kept."""
    found = FamilySeeds()
    if graph is None:
        return found
    for family in FAMILIES:
        try:
            plan = family.match(graph)
            if plan is None:
                continue
            made = family.seeds(plan, graph)
        except FamilyError as exc:
            found.skipped[family.name] = str(exc)
            continue
        except Exception as exc:  # a family's own bug must not end a run's seeding
            log.exception("The %s family failed on %s", family.name, spec_name)
            found.skipped[family.name] = f"{type(exc).__name__}: {exc}"
            continue
        found.seeds += [(f"{spec_name}-family-{family.name}-{s.variant}", s.source) for s in made]
    return found


__all__ = ["FAMILIES", "Family", "FamilyError", "FamilySeed", "FamilySeeds", "GraphError", "OpGraph", "OpNode",
           "family_seeds", "matching"]
