"""Evaluation options for tests that check what a kernel computes, not how fast it runs.

The default options time a candidate for at least 20 calls after 3 warm-up calls, and its eager baseline as
long: in Triton's interpreter that is most of an evaluation's time (a family seed's evaluation took 12 s of
which the timing loops took most, on the 2-core machine). Here one call is timed, on one input set, so the
timing stages still run, and correctness is checked on every variant as always.
"""

from __future__ import annotations

from typing import Any

from kernelevo.records.options import EvalOptions

ONE_TIMED_CALL: dict[str, Any] = {"baselines": ["eager"], "warmup_reps": 0, "warmup_ms": 0.0, "min_reps": 1,
                                  "min_measure_ms": 0.0, "max_reps": 1, "timing_input_sets": 1}


def correctness_options(**overrides: Any) -> EvalOptions:
    """EvalOptions that time one call, against the eager baseline only; ``overrides`` as EvalOptions takes them."""
    return EvalOptions(**{**ONE_TIMED_CALL, **overrides})
