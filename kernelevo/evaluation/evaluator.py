"""The evaluator as the search and the CLI see it: ``evaluate(spec, candidate) -> EvalResult``.

:class:`Evaluator` keeps one judge warm for a spec (its reference outputs, baselines and
spare candidate children), runs the static checks itself (they execute nothing), and
restarts the judge if it ever dies. Nothing here runs spec or kernel code: the judge and
the candidate children do, each in its own sandbox.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from kernelevo.evaluation.options import EvalOptions
from kernelevo.evaluation.protocol import EvaluateRequest, JudgeSetup
from kernelevo.evaluation.result import ErrorKind, EvalResult, Stage
from kernelevo.evaluation.static_check import check_source
from kernelevo.sandbox import Sandbox, SandboxFailure
from kernelevo.spec.errors import SpecError
from kernelevo.spec.spec import Spec
from kernelevo.utils.devices import cuda_present, sandbox_env

log = logging.getLogger(__name__)


def static_rejection(source: str, spec: Spec, options: EvalOptions) -> EvalResult | None:
    """The result for a source the static checks reject (they run nothing), or None."""
    if not options.static_checks:
        return None
    findings = check_source(source, language=spec.settings.language, allowed_imports=options.allowed_imports,
                            allowed_torch_ops=options.allowed_torch_ops)
    if not findings:
        return None
    return EvalResult(stage=Stage.STATIC, error=findings[0].kind, message="\n".join(str(f) for f in findings[:5]))


def source_of(candidate: Any) -> str:
    """A candidate's kernel source: a string, or anything with a ``source`` attribute."""
    return candidate if isinstance(candidate, str) else str(candidate.source)


class Evaluator:
    """A warm evaluation worker for one spec on one device. Use as a context manager."""

    def __init__(self, spec: Spec, options: EvalOptions | None = None) -> None:
        self.spec = spec
        self.options = options or EvalOptions()
        wanted = self.options.device
        self.gpu = cuda_present() if wanted == "auto" else wanted.startswith("cuda")
        self._judge: Sandbox | None = None
        self.judge_restarts = 0

    # -- lifecycle -----------------------------------------------------------------------------
    def start(self) -> None:
        """Start the judge and wait until it is ready; a broken spec raises :class:`SpecError`."""
        if self._judge is not None and self._judge.alive():
            return
        box = Sandbox("kernelevo.evaluation.judge:Judge", JudgeSetup(self.spec, self.options),
                      env=sandbox_env(gpu=self.gpu), name="judge")
        box.start()
        try:
            box.wait_ready(self.options.start_timeout_s + 600)  # the judge runs every reference and times baselines
        except SandboxFailure as exc:
            raise SpecError(exc.message.removeprefix("SpecError: ")) from None
        self._judge = box

    def close(self) -> None:
        if self._judge is not None:
            self._judge.close()
            self._judge = None

    def __enter__(self) -> Evaluator:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- evaluation ----------------------------------------------------------------------------
    def evaluate(self, candidate: Any) -> EvalResult:
        """Judge one candidate (source text or an object with ``.source``); never raises."""
        started = time.perf_counter()
        source = source_of(candidate)
        result = self._static(source)
        static_s = time.perf_counter() - started
        if result is None:
            result = self._in_judge(source)
        result.costs.static_s = static_s
        result.costs.total_s = time.perf_counter() - started
        return result

    def _static(self, source: str) -> EvalResult | None:
        result = static_rejection(source, self.spec, self.options)
        if result is not None:
            result.interpreted = not self.gpu
        return result

    def _in_judge(self, source: str) -> EvalResult:
        try:
            self.start()
        except SpecError as exc:
            return EvalResult(stage=Stage.COMPILE, error=ErrorKind.SPEC_ERROR, message=str(exc))
        assert self._judge is not None
        try:
            return self._judge.call(EvaluateRequest(source), {"*": self._judge_deadline_s()})
        except SandboxFailure as exc:
            # The judge itself failed (not the candidate): restart it for the next candidate.
            log.warning("judge failed (%s); restarting it", exc.message)
            self.close()
            self.judge_restarts += 1
            return EvalResult(stage=Stage.COMPILE, error=ErrorKind.EVALUATOR_ERROR,
                              message=f"the evaluator's judge failed: {exc.message}")

    def _judge_deadline_s(self) -> float:
        """A safety net above the judge's own per-stage limits."""
        o = self.options
        variants = len(self.spec.correctness_variants(gpu=self.gpu))
        return (o.start_timeout_s + o.compile_timeout_s * (2 + variants) + o.run_timeout_s * variants
                + 3 * o.timing_timeout_s + 600)


def evaluate(spec: Spec, candidate: Any, options: EvalOptions | None = None) -> EvalResult:
    """Judge one candidate against ``spec`` with a judge started for it; never raises."""
    evaluator = Evaluator(spec, options)
    try:
        return evaluator.evaluate(candidate)
    finally:
        evaluator.close()
