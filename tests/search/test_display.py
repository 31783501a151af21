"""What a person reads of a run: the summary rows, from a progress snapshot."""

from __future__ import annotations

from kernelevo.records.progress import Progress
from kernelevo.search.display import summary_rows


def progress(best: dict) -> Progress:
    return Progress.model_validate({"evaluations": 10, "correct": 9, "evaluations_per_min": 5.0, "coverage": {},
                                    "calls": 0, "tokens": 0, "dollars": 0.0, "elapsed_s": 120.0, "busy": 0.5,
                                    "best": best})


def test_the_best_line_names_its_library_calls_and_their_share() -> None:
    best = {"h100": {"candidate": 7, "objective": 0.4, "interpreted": False, "speedup_eager": 1.5,
                     "speedup_compile": 1.02, "roofline": 0.4, "library": "convolution (54% of GPU time)"}}
    line = dict(summary_rows(progress(best)))["best"]
    assert line == ("h100: #7 1.50x eager, 1.02x torch.compile, 40% of roofline; library: convolution "
                    "(54% of GPU time)")
    best["h100"]["library"] = None  # a kernel all its own
    assert "library" not in dict(summary_rows(progress(best)))["best"]


def test_the_best_line_says_which_floor_its_roofline_fraction_is_of() -> None:
    best = {"h200": {"candidate": 3, "objective": 0.1, "interpreted": False, "speedup_eager": 1.1,
                     "speedup_compile": 1.03, "roofline": 0.98, "roofline_floor": "read"}}
    line = dict(summary_rows(progress(best)))["best"]
    assert line == "h200: #3 1.10x eager, 1.03x torch.compile, 98% of roofline (read)"
