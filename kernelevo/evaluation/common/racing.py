"""Racing: a candidate clearly slower than the elite of its archive cell stops its timing early.

MAP-Elites keeps a candidate only if it measured faster than the elite of its cell
(:class:`~kernelevo.archive.elites.ElitesArchive`), and most candidates of a long search
are not. Their full timing (at least 100 ms of kernel time, hundreds of calls for a
fast kernel) decides nothing: it only measures precisely how much slower they are.

The driver sends each candidate a :class:`~kernelevo.records.race.Race`: the archive's
geometry and, for each occupied cell, the elite's objective (log speedup over eager) and
timing spread. The judge finds the candidate's cell from its descriptors once it has
compiled (no descriptor depends on a timing), turns the elite's objective into milliseconds
with its own eager baseline (:func:`threshold_ms`), and hands the child a threshold. The
timing loop then looks at the samples at ``min_reps`` calls and at each doubling; it stops
when a lower confidence bound on the candidate's median is above the threshold.

The rule, and its error bound. The bound is an order statistic: with ``n`` samples, the
``k``-th smallest, ``k = floor((n - Z * sqrt(n)) / 2)``, is below the true median except
with probability about ``Phi(-Z)`` = 0.13% (``Z`` = 3; the binomial's normal
approximation, for independent samples). The threshold is the elite's median times
``1 + margin``, the margin being the larger of :data:`RACE_MARGIN` (5%) and the elite's
relative IQR. With at most :data:`MAX_LOOKS` looks, a candidate whose true median is within
the margin of the elite's, or faster, is stopped early with probability below 1%; ties are
never decided by a shorter measurement, since a tie is within the margin. A stopped
candidate is not inserted either way: its median, from fewer samples, is above the bound,
itself above the elite's. Its timing is marked ``raced``, and the judge checks the rule on
the raw samples again (a child cannot stop early on its own).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from kernelevo.records.race import Race

Z = 3.0  # one-sided: the lower bound is above the true median with probability ~0.13%
RACE_MARGIN = 0.05  # a candidate within 5% of the elite (or its spread) is timed in full
MAX_LOOKS = 6  # min_reps, then each doubling: 20 .. 640 calls


def threshold_ms(race: Race, measures: dict[str, float] | None, eager_ms: float) -> float | None:
    """The median (ms) above which the candidate is clearly slower than its cell's elite (None: time it in full)."""
    if measures is None or any(name not in measures for name in race.descriptors) or eager_ms <= 0:
        return None
    incumbent = race.incumbents.get(race.cell([measures[name] for name in race.descriptors]))
    if incumbent is None:  # an empty cell: any correct kernel enters, and its time is what it is
        return None
    objective, rel_iqr = incumbent
    return eager_ms / math.exp(objective) * (1 + max(RACE_MARGIN, rel_iqr))


def looks(min_reps: int) -> set[int]:
    """The sample counts at which the rule is checked."""
    return {max(min_reps, 1) << i for i in range(MAX_LOOKS)}


def median_lower_bound(samples: Sequence[float]) -> float | None:
    """A lower confidence bound on the median of ``samples``' distribution (None: too few samples)."""
    n = len(samples)
    k = math.floor((n - Z * math.sqrt(n)) / 2)
    if k < 1:
        return None
    return sorted(samples)[k - 1]


def clearly_slower(samples: Sequence[float], threshold_ms: float) -> bool:
    """The rule: the median's lower bound is above the threshold (samples and threshold in the same units)."""
    bound = median_lower_bound(samples)
    return bound is not None and bound > threshold_ms
