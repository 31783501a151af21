"""Triton's once-per-process work, done before a candidate arrives (kernelevo.evaluation.child.triton_warm)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kernelevo.evaluation.child.triton_warm import GLUON_MODULES

CHECK = """
import sys, time
from kernelevo.evaluation.child.triton_warm import GLUON_MODULES, _function, warm_triton_key
key = _function("triton_key", ("triton.runtime.cache", "triton.compiler.compiler"))
assert key is not None, "this Triton has no triton_key: the warm-up would do nothing"
assert key.cache_info().currsize == 0
spent = warm_triton_key()
assert key.cache_info().currsize == 1, "the key was not cached by the warm-up"
start = time.perf_counter(); key(); again = time.perf_counter() - start
gluon = [m for m in GLUON_MODULES if m in sys.modules]
print(spent, again, len(gluon))
"""


def test_warm_triton_key_fills_the_process_cache() -> None:
    """In a fresh process: the key is computed once by the warm-up, and the first launch's lookup is then free."""
    out = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, check=True)
    spent, again, gluon = out.stdout.split()
    assert float(spent) > 10 * float(again)  # hashing 500 MB of libtriton against a cache hit
    assert int(gluon) == len(GLUON_MODULES)  # imported ahead, not at the first launch's specialization


@pytest.mark.gpu
def test_warm_backend_caches_the_ptxas_version() -> None:
    import torch

    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    check = ("import torch; torch.cuda.init()\n"
             "from kernelevo.evaluation.child.triton_warm import warm_backend\n"
             "import time; first = warm_backend(); second = warm_backend(); print(first, second)")
    out = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, check=True)
    first, second = (float(x) for x in out.stdout.split())
    assert second < first
