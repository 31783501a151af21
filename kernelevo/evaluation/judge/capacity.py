"""Where an evaluator judges and how many candidates it takes at once, known without starting it.

A Ray actor advertises its slots and the command line decides whether a run needs a GPU from
these, before any judge (and its torch import) exists.
"""

from __future__ import annotations

from kernelevo.records.options import EvalOptions
from kernelevo.utils.devices import cuda_present


def uses_gpu(options: EvalOptions) -> bool:
    wanted = options.device
    return cuda_present() if wanted == "auto" else wanted.startswith("cuda")


def slots_for(options: EvalOptions, *, gpu: bool | None = None) -> int:
    """Candidates worth handing an evaluator at once: on a GPU, one judged plus those compiling ahead."""
    on_gpu = uses_gpu(options) if gpu is None else gpu
    return 1 + options.ahead() if options.precompile and on_gpu else 1
