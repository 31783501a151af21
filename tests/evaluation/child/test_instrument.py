"""The child's instrumentation of Triton, installed in a fresh Python as a candidate's child does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

# Builds three autotuners after installing the GPU child's instrumentation: one with Triton's
# default benchmarker, one with its own, one with its own repetitions; prints what each would use.
PROBE = textwrap.dedent("""
    import json
    import triton
    import triton.language as tl
    from kernelevo.evaluation.child.instrument import LaunchRecorder

    LaunchRecorder().install(interpreted=False)

    @triton.jit
    def kernel(x_ptr, n, BLOCK: tl.constexpr):
        pass

    configs = [triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})]
    own = lambda fn, quantiles: [1.0, 1.0, 1.0]
    default = triton.autotune(configs, key=["n"])(kernel)
    given = triton.autotune(configs, key=["n"], do_bench=own)(kernel)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Triton deprecates warmup and rep
        reps = triton.autotune(configs, key=["n"], warmup=7, rep=70)(kernel)
    out = {"default": dict(default.do_bench.keywords), "given": given.do_bench is own,
           "reps": reps.do_bench is reps._do_bench}
    print(json.dumps(out))
""")


def test_a_candidates_own_autotuner_gets_short_trials_on_the_gpu(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"  # @triton.jit reads its function's source from a file
    probe.write_text(PROBE)
    done = subprocess.run([sys.executable, str(probe)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["default"] == {"warmup": 5, "rep": 20}
    assert seen["given"] and seen["reps"]  # what the candidate chose stays its choice
