"""Evaluation options for tests that check what a kernel computes, not how fast it runs.

On Triton's interpreter the judge already times a candidate for 3 calls after 1 warm-up call, over 2 input
sets (EvalOptions.interpreter), and its eager baseline as long. Here one call is timed, on one input set, so
the timing stages still run and correctness is checked on every variant as always. Two family-seed tests took
about 30% less (amax_nan_rows 45 to 33 s, maxpool3d 34 to 24 s; the 2-core development machine, 2026-11-27).
"""

from __future__ import annotations

from typing import Any

from kernelevo.records.options import EvalOptions

ONE_TIMED_CALL: dict[str, Any] = {"baselines": ["eager"], "warmup_reps": 0, "warmup_ms": 0.0, "min_reps": 1,
                                  "min_measure_ms": 0.0, "max_reps": 1, "timing_input_sets": 1}


def correctness_options(**overrides: Any) -> EvalOptions:
    """EvalOptions that time one call, against the eager baseline only; ``overrides`` as EvalOptions takes them."""
    return EvalOptions(**{**ONE_TIMED_CALL, **overrides})
