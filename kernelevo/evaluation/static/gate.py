"""The static checks' verdict, given in the trusted process before any child starts.

The checks execute nothing, so the evaluator, the Ray pool and a batch each turn a rejected
source away here without spending a judge's time on it.
"""

from __future__ import annotations

from kernelevo.evaluation.common.library_policy import effective_policy
from kernelevo.evaluation.static.check import check_source
from kernelevo.records.options import EvalOptions
from kernelevo.records.result import EvalResult, Stage
from kernelevo.spec.spec import Spec


def static_rejection(source: str, spec: Spec, options: EvalOptions) -> EvalResult | None:
    """The result for a source the static checks reject (they run nothing), or None."""
    if not options.static_checks:
        return None
    findings = check_source(source, language=spec.settings.language, allowed_imports=options.allowed_imports,
                            allowed_torch_ops=options.allowed_torch_ops, allowed_libraries=options.allowed_libraries,
                            library=effective_policy(options.library, spec.settings.library))
    if not findings:
        return None
    return EvalResult(stage=Stage.STATIC, error=findings[0].kind, message="\n".join(str(f) for f in findings[:5]))
