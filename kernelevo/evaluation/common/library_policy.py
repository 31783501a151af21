"""The library policy in force: which vendor-library families a candidate may hand to torch.

A run's option (:attr:`kernelevo.records.options.EvalOptions.library`) over the spec's setting
over the default (every family); :mod:`kernelevo.evaluation.common.library` says what each family covers.
"""

from __future__ import annotations

from collections.abc import Sequence

from kernelevo.records.result import LIBRARY_FAMILIES


def library_option(text: str) -> list[str] | None:
    """A ``--library`` value: ``default`` (None: the spec's setting, else every family), ``pure`` (``[]``),
    or families, comma-separated (``gemm,conv``). ValueError names what is wrong."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if names == ["default"]:
        return None
    if names == ["pure"]:
        return []
    unknown = [n for n in names if n not in LIBRARY_FAMILIES]
    if unknown or not names:
        raise ValueError(f"--library {text!r}: give 'default', 'pure', or families among "
                         f"{', '.join(LIBRARY_FAMILIES)}, comma-separated")
    return [f for f in LIBRARY_FAMILIES if f in names]


def describe_policy(families: Sequence[str]) -> str:
    """One line for prompts and logs."""
    if not families:
        return "pure: every op, GEMMs and convolutions included, must run in the candidate's own kernels"
    named = {"gemm": "dense GEMM (torch.mm, addmm, bmm, baddbmm, matmul, F.linear)",
             "conv": "convolution (F.conv1d/2d/3d and their transposes)",
             "attention": "scaled dot-product attention (F.scaled_dot_product_attention)",
             "rnn": "recurrent layers (nn.LSTM, nn.GRU, nn.RNN)"}
    return ("a candidate may hand " + "; ".join(named[f] for f in families) + " to torch's vendor libraries, for "
            "the same work the reference does; every other op must run in its own kernels")


def effective_policy(option: Sequence[str] | None, spec_setting: Sequence[str] | None) -> tuple[str, ...]:
    """The families in force: a run's option over the spec's setting over the default (every family)."""
    for chosen in (option, spec_setting):
        if chosen is not None:
            return tuple(f for f in LIBRARY_FAMILIES if f in chosen)
    return LIBRARY_FAMILIES
