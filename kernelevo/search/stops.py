"""Why a search with no task left stops, in words a person can act on: its operators made everything they could,
it never had a seed, or every seed was rejected (and, where each was a wrong output, by how much)."""

from __future__ import annotations

from kernelevo.records.result import ErrorKind
from kernelevo.records.run import StopReason
from kernelevo.search.state import SearchState

EXHAUSTED = ("the operators made nothing new from any elite (the template operator's space is exhausted; "
             "add an LLM with --model)")


def nothing_left(state: SearchState, why_no_seed: str) -> tuple[str, StopReason]:
    """The stop of a search that has no task left; ``why_no_seed``: why seeding made none ('' if it made some)."""
    if state.archives and any(len(a) for a in state.archives.values()):
        return EXHAUSTED, StopReason.EXHAUSTED
    if not state.candidates:  # nothing was ever made: every operator varies a kernel
        return ("nothing to start from: no seed kernel was given or made"
                + (f" ({why_no_seed})" if why_no_seed else "")
                + "; every operator varies a kernel: give the spec a seed, or search on a GPU"
                " where torch.compile's kernels become seeds (--seed-from auto or compile)", StopReason.NO_SEED)
    return ("no correct kernel to vary: every seed was rejected (see the evaluations)" + _wrong_seeds_hint(state),
            StopReason.NO_CORRECT_SEED)


def _wrong_seeds_hint(state: SearchState) -> str:
    """Where every seed gave a wrong output, torch.compile's own among them, the likelier fault is a tolerance
    tighter than the reference's own rounding than every seed: say by how much, and how to check it."""
    results = [e.result for told in state.evaluations.values() for e in told]
    if not results or any(r.error != ErrorKind.WRONG_OUTPUT for r in results):
        return ""
    misses = [r.mismatch for r in results if r.mismatch is not None]
    closest = min(misses, key=lambda m: m.mismatched / max(m.total, 1), default=None)
    nearest = (f" (the closest missed on {closest.mismatched} of {closest.total} elements, max abs error "
               f"{closest.max_abs_error:.3g} against atol {closest.atol:g}, rtol {closest.rtol:g})"
               if closest is not None else "")
    return (f"; all as wrong output{nearest}: if torch.compile's own kernels are among them, the spec's "
            "tolerance may be tighter than the reference's own rounding (an ill-conditioned reference, or "
            "float32 convolutions in TF32 on a GPU): `kernelevo spec SPEC` measures the reference against "
            "float64 and says what tolerance admits it")


__all__ = ["EXHAUSTED", "nothing_left"]
