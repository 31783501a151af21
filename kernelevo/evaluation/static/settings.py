"""torch's global settings set from a candidate: named by the static check before anything runs.

A setting holds for every op in the process, the reference's too. One that decides precision (TF32,
``fp32_precision``, ``set_float32_matmul_precision``, ``cudnn.flags``) is ``precision_settings``
(:mod:`kernelevo.evaluation.common.precision` checks the same at run time); any other change through
``torch.backends`` (a BLAS library, an attention backend) is ``monkey_patch``. Queries pass.
"""

from __future__ import annotations

from kernelevo.evaluation.static.rules import BACKEND_QUERIES
from kernelevo.records.result import ErrorKind

_SPEC_OPTS_IN = "a spec that accepts TF32 says so (tf32: True)"


def _about_precision(*words: str) -> bool:
    return any(w == "flags" or "tf32" in w or "precision" in w for w in words)


def settings_call(resolved: str, keywords: list[str], has_arguments: bool) -> tuple[ErrorKind, str] | None:
    """The finding for a call of ``resolved`` (its keyword names, whether it has any argument); None for others."""
    name = resolved.rpartition(".")[2]
    query = name in BACKEND_QUERIES or (name == "preferred_blas_library" and not has_arguments)
    if resolved != "torch.set_float32_matmul_precision" and not (resolved.startswith("torch.backends.") and not query):
        return None
    if _about_precision(name, *keywords):
        return (ErrorKind.PRECISION_SETTINGS, f"{resolved}() changes the precision of torch's GEMMs or convolutions "
                                              f"for every op in the process, the reference's too; {_SPEC_OPTS_IN}")
    return ErrorKind.MONKEY_PATCH, f"{resolved}() changes torch's global settings for every op in the process, " \
                                   "the reference's too"


def settings_assignment(owner: str, attr: str) -> tuple[ErrorKind, str]:
    """The finding for an assignment to ``owner.attr``, ``owner`` a torch name (every such assignment is one)."""
    if owner.startswith("torch.backends") and _about_precision(attr):
        return (ErrorKind.PRECISION_SETTINGS, f"setting {owner}.{attr} changes the precision of torch's ops for the "
                                              f"whole process, the reference's too; {_SPEC_OPTS_IN}")
    return ErrorKind.MONKEY_PATCH, f"assigning into {owner} patches a library: not allowed"


__all__ = ["settings_assignment", "settings_call"]
