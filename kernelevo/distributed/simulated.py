"""An evaluator actor that sleeps instead of evaluating: for measuring the search loop itself.

It answers every candidate after a fixed delay (an evaluation time measured on a real
GPU) with a result marked ``hardware="simulated"``, never a speed of any real device. The
scaling benchmark uses it to show what the loop, Ray and the run store cost on their own,
with 1 to 8 actors on a machine without GPUs.
"""

from __future__ import annotations

import os
import time
import zlib

from kernelevo.evaluation import EvalOptions, EvalResult
from kernelevo.records.result import Environment, Stage, Timing
from kernelevo.spec import Spec


class SimulatedEvaluatorActor:
    delay_s = 1.0

    def __init__(self, options: EvalOptions) -> None:
        self.options = options

    def ready(self) -> dict[str, str]:
        return {"pid": str(os.getpid()), "simulated": f"{self.delay_s} s per evaluation"}

    def prepare(self, spec: Spec) -> str | None:
        return None

    def evaluate(self, spec: Spec, source: str) -> EvalResult:
        time.sleep(self.delay_s)
        # a deterministic, made-up time per source, so the archive has something to order
        kernel_ms = 1.0 + (zlib.crc32(source.encode()) % 1000) / 1000

        def timing(ms: float) -> Timing:
            return Timing(median_ms=ms, iqr_ms=0.0, min_ms=ms, mean_ms=ms, repetitions=1, method="simulated")

        env = Environment(device="simulated", device_name="simulated", hardware="simulated", torch="-", triton="-",
                          python="-", hostname="-")
        result = EvalResult(correct=True, stage=Stage.VERDICT, kernel=timing(kernel_ms), eager=timing(1.5),
                            speedup_eager=1.5 / kernel_ms, environment=env)
        result.costs.judge_s = self.delay_s
        return result

    def close(self) -> None:
        pass
