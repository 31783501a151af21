"""A fixed list of template mutants of a kernel, made reproducibly, for benchmarks that need the same work twice."""

from __future__ import annotations

import random

from kernelevo.variation.moves import template


def mutants(source: str, count: int, seed: int) -> list[str]:
    """``source`` and ``count - 1`` distinct template mutants of it (and of each other), reproducibly."""
    rng = random.Random(seed)
    made, parents = [source], [source]
    for _ in range(count * 100):  # a small parameter space may hold fewer
        if len(made) == count:
            break
        child = template.mutate(rng.choice(parents), rng)
        if child is not None and child[0] not in made:
            made.append(child[0])
            parents.append(child[0])
    return made
