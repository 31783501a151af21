"""The one function that places a kernel in its archive cell agrees with pyribs' own placement."""

from __future__ import annotations

import random

import numpy as np
import pytest
from ribs.archives import GridArchive

from kernelevo.records.cell import cell_index

DIMS = (4, 4, 4)
RANGES = ((0.0, 4.0), (0.0, 4.0), (0.0, 4.0))


def test_cell_index_is_pyribs_index_of_on_edges_inside_and_outside_the_grid() -> None:
    grid = GridArchive(solution_dim=(), dims=list(DIMS), ranges=list(RANGES), solution_dtype=np.int64)
    rng = random.Random(0)
    edges = [-1.0, 0.0, 1.0, 1.0 - 1e-9, 2.0, 3.999999, 4.0, 7.5]
    points = [tuple(rng.choice(edges) for _ in DIMS) for _ in range(200)]
    points += [tuple(rng.uniform(-1.0, 5.0) for _ in DIMS) for _ in range(500)]
    for measures in points:
        assert cell_index(measures, dims=DIMS, ranges=RANGES) == int(grid.index_of_single(measures)), measures


@pytest.mark.parametrize(("dims", "ranges"), [
    ((8, 5), ((0.0, 1.0), (-3, 7))),  # integer bounds, as some descriptors give them
    ((16, 4, 3), ((1.0, 1024.0), (0.0, 0.25), (2.0, 2.5))),
])
def test_cell_index_is_pyribs_index_of_on_other_grids_and_odd_values(dims: tuple[int, ...],
                                                                     ranges: tuple[tuple[float, float], ...]) -> None:
    grid = GridArchive(solution_dim=(), dims=list(dims), ranges=[tuple(map(float, r)) for r in ranges],
                       solution_dtype=np.int64)
    rng = random.Random(1)
    odd = [1e300, -1e300, 5e9, -5e9]  # far outside: pyribs clips them (it refuses NaN and infinities)
    for _ in range(2000):
        measures = tuple(rng.choice(odd) if rng.random() < 0.05 else rng.uniform(low - 1, high + 1)
                         for low, high in ranges)
        with np.errstate(invalid="ignore"):  # numpy's cast of values past int32, as pyribs makes it
            expected = int(grid.index_of_single(measures))
        assert cell_index(measures, dims=dims, ranges=ranges) == expected, measures
    for value in (float("nan"), float("inf"), -float("inf")):  # still a cell of the grid, never an error
        assert 0 <= cell_index((value,) * len(dims), dims=dims, ranges=ranges) < int(np.prod(dims))


def test_a_measure_missing_says_how_many_the_grid_needs() -> None:
    with pytest.raises(ValueError, match="one measure and one"):
        cell_index((1.0, 2.0), dims=DIMS, ranges=RANGES)
