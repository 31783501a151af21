"""nvcc for tests: compile a candidate's CUDA C++ to a cubin for sm_90 (no GPU needed).

CuPy units compile as they are, with the template instantiations the candidate names
(``name_expressions``, ``get_function("k<128>")``) forced, as NVRTC would. load_inline
units compile their ``cuda_sources`` against ``tests/cuda_stub/``, a few lines standing in
for torch's C++ API, so that the kernels and the launches in the host wrapper are checked
without torch's headers (minutes to parse).
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from kernelevo.utils.cuda_source import find_cuda
from kernelevo.variation.source.cuda_launches import template_strings

NVCC = shutil.which("nvcc")
STUB = Path(__file__).parent / "cuda_stub"
needs_nvcc = pytest.mark.skipif(NVCC is None, reason="needs nvcc on PATH")


def jobs(source: str) -> list[tuple[str, tuple[str, ...]]]:
    """(code, nvcc flags) for each CUDA unit of a candidate."""
    found = []
    instances = list(dict.fromkeys(str(node.value) for node in template_strings(ast.parse(source))))
    for unit in find_cuda(source).units:
        flags = tuple(o for o in unit.options if o.startswith(("-D", "-U", "-std", "--std")))
        code = unit.code
        if unit.form == "load_inline":  # load_inline puts torch/types.h first; the stub stands in
            flags = ("-include", "torch/types.h", *flags)
        else:  # taking a kernel's address instantiates it
            mine = [name for name in instances if name.split("<")[0].strip() in unit.kernels]
            code += "".join(f"\n[[maybe_unused]] static void* const kernelevo_instance_{i} = (void*)&{name};"
                            for i, name in enumerate(mine))
        found.append((code, flags))
    return found


def nvcc(code: str, flags: tuple[str, ...] = ()) -> str | None:
    """None when ``code`` compiles, else nvcc's error output."""
    assert NVCC is not None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "unit.cu"
        path.write_text(code)
        done = subprocess.run([NVCC, "-arch=sm_90", "-cubin", "-std=c++17", "-I", str(STUB), *flags, "-o",
                               str(path.with_suffix(".cubin")), str(path)], capture_output=True, text=True,
                              timeout=120)
    return None if done.returncode == 0 else done.stderr + done.stdout


def nvcc_many(units: list[tuple[str, tuple[str, ...]]]) -> list[str | None]:
    """:func:`nvcc` over many units, one per core at a time; identical units compile once."""
    distinct = list(dict.fromkeys(units))
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = dict(zip(distinct, pool.map(lambda unit: nvcc(*unit), distinct), strict=True))
    return [results[unit] for unit in units]
