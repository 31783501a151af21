"""Compiling a CUDA candidate's C++ for a target GPU, and reading what came out.

Used in two places, always inside a sandbox (compilers read untrusted source):

- without a GPU, :class:`CudaCompiler` compiles every CUDA unit of a candidate for sm_90
  with ``nvcc`` (the sources are found in the AST; nothing of the candidate runs), so
  the user gets the compile errors, registers, spills and shared memory, PTX and SASS;
  correctness and timing then need a GPU, and the result says so;
- on a GPU, the candidate's child reads the same from what it actually built (the
  extension ``load_inline`` linked; a loaded CuPy kernel's attributes), and the evaluator,
  once the judge has let go of the GPU, compiles each CuPy unit once more with ``nvcc`` for
  its PTX and SASS (CuPy's NVRTC goes straight to a cubin and keeps neither).

Resource figures come from ``cuobjdump -res-usage`` (Triton bundles cuobjdump and
nvdisasm, so this works wherever Triton is installed).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import re
import shutil
import subprocess
import sysconfig
import tempfile
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

from kernelevo.records.result import CudaBuild, KernelMetadata
from kernelevo.utils.cuda_source import CudaUnit, find_cuda

TARGET_ARCH = "sm_90"
NO_NVCC = "nvcc was not found: install the CUDA toolkit (or put nvcc on PATH) to compile CUDA here"
TEXT_LIMIT = 64 * 1024  # PTX and SASS kept with a result, each (a long kernel's run to megabytes)
_RESOURCES = re.compile(r"Function ([^\s:]+):\s*\n\s*((?:[A-Z_\[\]0-9]+:\d+\s*)+)")


@dataclass
class CudaCompileRequest:
    source: str
    arch: str = TARGET_ARCH
    forms: tuple[str, ...] = ("cupy", "load_inline")  # which units to compile


@dataclass
class CudaCompileReply:
    builds: list[CudaBuild]
    kernels: list[KernelMetadata]
    missing: str | None = None  # no compiler here: nothing was compiled (not the candidate's fault)


class CudaCompiler:
    """Sandbox handler: compiles one candidate's CUDA units for ``arch`` without a GPU."""

    def __init__(self, arg: None, conn: Connection) -> None:
        self.conn = conn

    def handle(self, request: CudaCompileRequest) -> CudaCompileReply:
        if nvcc() is None:
            return CudaCompileReply([], [], missing=NO_NVCC)
        builds, kernels = [], []
        for unit in find_cuda(request.source).units:
            if unit.form not in request.forms:
                continue
            build, found = compile_unit(unit, request.arch)
            builds.append(build)
            kernels += found
        return CudaCompileReply(builds, kernels)


@functools.cache  # the toolkit does not move while the process runs
def nvcc() -> str | None:
    found = shutil.which("nvcc")
    if found:
        return found
    for home in sorted(Path("/usr/local").glob("cuda*/bin/nvcc"), reverse=True):
        return str(home)
    return None


@functools.cache
def cuda_tool(name: str) -> str | None:
    """cuobjdump / nvdisasm: Triton's bundled copy, else the toolkit's."""
    spec = importlib.util.find_spec("triton")
    if spec is not None and spec.origin:
        bundled = Path(spec.origin).parent / "backends" / "nvidia" / "bin" / name
        if bundled.exists():
            return str(bundled)
    return shutil.which(name)


@functools.cache
def nvrtc_toolkit_flags() -> tuple[str, ...]:
    """``-I`` for the CUDA toolkit's own headers, for NVRTC (CuPy) to fall back on.

    The pip NVRTC packages ship only part of the toolkit's headers: their ``mma.h`` (WMMA)
    includes ``crt/mma.h``, which they lack. Where a toolkit is installed, its include folder
    goes last on NVRTC's path, so headers NVRTC ships still come first."""
    tool = nvcc()
    if tool is None:
        return ()
    include = Path(tool).resolve().parent.parent / "include"
    return ("-I" + str(include),) if (include / "crt" / "mma.h").exists() else ()


@functools.cache  # one `nvcc --version` per process, not one per compiled unit
def nvcc_version() -> str:
    tool = nvcc()
    if tool is None:
        return "nvcc not found"
    out = subprocess.run([tool, "--version"], capture_output=True, text=True, timeout=30).stdout
    match = re.search(r"release ([\d.]+)", out)
    return f"nvcc {match.group(1)}" if match else "nvcc"


STUBS = Path(__file__).parent / "cuda_stubs"


def torch_include_flags(tool: str, scratch: Path) -> list[str]:
    """Include paths load_inline compiles with (found without importing torch), and stand-ins
    for math-library headers torch's CUDA headers need where the toolkit lacks them (cuda_stubs/)."""
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.origin:
        return []
    root = Path(spec.origin).parent / "include"
    flags = ["-I", str(root), "-I", str(root / "torch" / "csrc" / "api" / "include"),
             "-I", sysconfig.get_paths()["include"]]
    toolkit = Path(tool).resolve().parent.parent
    roots = [root, toolkit / "include", *toolkit.glob("targets/*/include")]
    stubs = scratch / "stubs"
    for stub in STUBS.rglob("*.h"):
        relative = stub.relative_to(STUBS)
        if not any((r / relative).exists() for r in roots):
            (stubs / relative).parent.mkdir(parents=True, exist_ok=True)
            (stubs / relative).write_text(stub.read_text())
    if stubs.exists():
        flags += ["-I", str(stubs)]
    return flags


def compile_unit(unit: CudaUnit, arch: str = TARGET_ARCH, *, timeout_s: float = 600) -> tuple[
        CudaBuild, list[KernelMetadata]]:
    """Compile one unit's device code for ``arch`` into a fatbin (SASS and PTX); never raises."""
    tool = nvcc()
    build = CudaBuild(form=unit.form, name=unit.name or "RawModule", arch=arch, compiler=nvcc_version(),
                      ahead_of_time=True)
    if tool is None:
        build.error = NO_NVCC
        return build, []
    flags = ["-std=c++17", "-O3", "-Xptxas", "-v", f"-gencode=arch=compute_{arch[3:]},code=[{arch},compute_{arch[3:]}]"]
    flags += [o for o in unit.options if o.startswith(("-D", "--use_fast_math", "-use_fast_math", "--fmad",
                                                       "-maxrregcount", "--maxrregcount", "-U", "--extra-device"))]
    code = unit.code
    with tempfile.TemporaryDirectory(prefix="kernelevo-nvcc-") as tmp:
        if unit.form == "load_inline":
            flags += [*torch_include_flags(tool, Path(tmp)), f"-DTORCH_EXTENSION_NAME={unit.name or 'ext'}",
                      "-DTORCH_API_INCLUDE_EXTENSION_H"]
            code = "#include <torch/extension.h>\n" + code if "torch/extension.h" not in code else code
        cu, out = Path(tmp) / "unit.cu", Path(tmp) / "unit.fatbin"
        cu.write_text(code)
        start = time.perf_counter()
        try:
            done = subprocess.run([tool, *flags, "-fatbin", "-o", str(out), str(cu)], capture_output=True,
                                  text=True, timeout=timeout_s, cwd=tmp)
        except subprocess.TimeoutExpired:
            build.error = f"nvcc took over {timeout_s:g} s"
            return build, []
        build.compile_s = time.perf_counter() - start
        log = done.stderr.replace(str(cu), "unit.cu")
        build.log = _cut(log)
        if done.returncode != 0:
            build.error = f"nvcc failed (exit {done.returncode}):\n{_cut(log, 4000)}"
            return build, []
        return read_binary(out, build, unit.kernels)


def read_binary(path: Path, build: CudaBuild, own: list[str], *, source: str = "aot-sm90") -> tuple[
        CudaBuild, list[KernelMetadata]]:
    """PTX, SASS and each own kernel's resources from a cubin, fatbin or a built extension."""
    dump = cuda_tool("cuobjdump")
    if dump is None:  # the build itself worked: only its figures and listings are missing
        build.log += "\ncuobjdump was not found (it comes with Triton and the CUDA toolkit): no figures, PTX or SASS"
        return build, []
    usage = subprocess.run([dump, "-res-usage", str(path)], capture_output=True, text=True, timeout=120).stdout
    build.sass = _cut(subprocess.run([dump, "-sass", str(path)], capture_output=True, text=True, timeout=120).stdout)
    ptx = subprocess.run([dump, "-ptx", str(path)], capture_output=True, text=True, timeout=120).stdout
    build.ptx = _cut(ptx) if ".entry" in ptx else None
    build.truncated = any(t is not None and t.endswith(_TRUNCATED) for t in (build.sass, build.ptx))
    kernels = []
    for mangled, fields in _RESOURCES.findall(usage):
        name = own_name(mangled, own)
        if name is None:
            continue
        res = {k: int(v) for k, v in re.findall(r"(REG|SHARED|LOCAL|STACK):(\d+)", fields)}
        kernels.append(KernelMetadata(name=name, registers=res.get("REG"), spills=res.get("LOCAL"),
                                      shared_bytes=res.get("SHARED"), source=source,
                                      max_threads_per_block=register_limited_threads(res.get("REG"))))
    return build, kernels


def register_limited_threads(registers: int | None) -> int | None:
    """The most threads a block may have with this many registers per thread (Hopper: 64 Ki
    registers per SM, allocated per warp in units of 256)."""
    if not registers:
        return None
    per_warp = -(-registers * 32 // 256) * 256
    return min(1024, 65536 // per_warp * 32)


def own_name(symbol: str, own: list[str]) -> str | None:
    """Which of the candidate's kernels a (mangled or demangled) symbol is, if any."""
    for name in own:
        # extern "C": the name itself; C++: "_Z11gelu_kernelPKfPfi" (its length, then the name);
        # demangled, as the profiler shows it: "gelu_kernel(float const*, float*, int)"
        if symbol == name or re.search(rf"(?<!\d){len(name)}{re.escape(name)}", symbol) \
                or re.search(rf"(?<!\w){re.escape(name)}(?!\w)", symbol):
            return name
    return None


_TRUNCATED = "\n... (cut: longer than 64 KiB)"


def _cut(text: str, limit: int = TEXT_LIMIT) -> str:
    return text if len(text) <= limit else text[:limit] + _TRUNCATED


def source_hash(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]
