"""A candidate's archive cell: the one function that places descriptor values in the grid.

The archive (:class:`~kernelevo.archive.elites.ElitesArchive`) and the judge's race
(:class:`~kernelevo.records.race.Race`, read by :mod:`kernelevo.evaluation.common.racing`) both place a
kernel in a cell; both call :func:`cell_index`, so they cannot disagree. It lives here, below both.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

# what ``ribs.archives.GridArchive`` adds before truncating (its default ``epsilon``): a value on a
# cell's lower edge, a little off after the subtraction, still lands in that cell
EPSILON = 1e-6
# a driver tells hundreds of results a second, each placed in a cell: numpy's calls on arrays of three values
# took 26.5 us a cell, plain arithmetic 3.8 us (2-core development machine, 2026-11-27)
_INT32 = 2.0**31


def cell_index(measures: Sequence[float], *, dims: Sequence[int], ranges: Sequence[tuple[float, float]]) -> int:
    """The flat cell index of ``measures`` (one value per descriptor) in a grid of ``dims`` cells per
    descriptor over ``ranges`` (low, high), exactly as ``GridArchive.index_of`` computes it: each value
    scaled to its cell, clipped into the grid, then raveled in row-major order."""
    if len(measures) != len(dims) or len(ranges) != len(dims):
        raise ValueError(f"cell_index needs one measure and one (low, high) range per descriptor: got "
                         f"{len(measures)} measures and {len(ranges)} ranges for {len(dims)} descriptors")
    grid = []
    for value, cells, (low, high) in zip(measures, dims, ranges, strict=True):
        scaled = (cells * (float(value) - low) + EPSILON) / (high - low)
        if not -_INT32 < scaled < _INT32:  # NaN, infinities and the like: as numpy casts them, below
            return _cell_index_numpy(measures, dims=dims, ranges=ranges)
        grid.append(min(max(int(scaled), 0), cells - 1))  # int() truncates toward 0, as astype(np.int32)
    index = 0
    for g, cells in zip(grid, dims, strict=True):  # row-major, as np.ravel_multi_index
        index = index * cells + g
    return index


def _cell_index_numpy(measures: Sequence[float], *, dims: Sequence[int], ranges: Sequence[tuple[float, float]]
                      ) -> int:
    cells = np.asarray(dims, dtype=np.int32)
    low = np.asarray([r[0] for r in ranges], dtype=np.float64)
    high = np.asarray([r[1] for r in ranges], dtype=np.float64)
    values = np.asarray(measures, dtype=np.float64)
    with np.errstate(invalid="ignore"):  # NaN and values past int32 cast as numpy casts them, without a warning
        grid = ((cells * (values - low) + EPSILON) / (high - low)).astype(np.int32)
    grid = np.clip(grid, 0, cells - 1)
    return int(np.ravel_multi_index(tuple(grid), tuple(dims)))
