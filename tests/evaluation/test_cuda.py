"""CUDA candidates without a GPU: the static checks, the sources found, the compile for sm_90,
and how a profiler's list of kernels is read (the GPU side is in test_cuda_gpu.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cuda_kernels import CUPY, LOAD_INLINE

from kernelevo.evaluation import ErrorKind, EvalOptions, Evaluator
from kernelevo.evaluation.child.cuda_build import own_name, register_limited_threads
from kernelevo.evaluation.child.cuda_runtime import CudaRuntime, LaunchLog, read_kernels
from kernelevo.evaluation.static.check import check_source
from kernelevo.spec import read_spec
from kernelevo.utils.cuda_source import find_cuda, is_cuda_source, kernel_names

ROOT = Path(__file__).resolve().parents[2]
GELU = ROOT / "examples" / "gelu"
HAS_NVCC = shutil.which("nvcc") is not None or any(Path("/usr/local").glob("cuda*/bin/nvcc"))
NEEDS_NVCC = pytest.mark.skipif(not HAS_NVCC, reason="needs nvcc (the CUDA toolkit's compiler)")

def cuda_findings(source: str, **kwargs: object) -> list[ErrorKind]:
    return [f.kind for f in check_source(source, language="cuda", **kwargs)]  # type: ignore[arg-type]


# -- finding the CUDA ------------------------------------------------------------------------------

def test_both_forms_and_their_kernels_are_found_without_running_anything() -> None:
    cupy, inline = find_cuda(CUPY), find_cuda(LOAD_INLINE)
    assert [u.form for u in cupy.units] == ["cupy"] and cupy.units[0].options == ("--std=c++17",)
    assert [u.form for u in inline.units] == ["load_inline"] and inline.units[0].name == "gelu_ext"
    assert cupy.kernels == inline.kernels == ["gelu_kernel"]
    assert "gelu_cuda(torch::Tensor x);" in inline.units[0].host_code
    assert is_cuda_source(CUPY) and not is_cuda_source((GELU / "seed.py").read_text())


def test_kernel_names_cover_the_ways_people_declare_kernels() -> None:
    code = """
    extern "C" __global__ void a(float* x) {}
    __global__ void __launch_bounds__(256) b(float* x) {}
    template <int BLOCK> __global__ void c(float* x) {}
    extern "C" __global__
    void d(int n) {}
    // __global__ void commented_out(int n) {}
    /* __global__ void also_commented(int n) {} */
    """
    assert kernel_names(code) == ["a", "b", "c", "d"]


# -- static checks -------------------------------------------------------------------------------

def test_honest_cuda_candidates_pass_and_a_triton_spec_still_rejects_cupy() -> None:
    assert cuda_findings(CUPY) == [] and cuda_findings(LOAD_INLINE) == []
    assert ErrorKind.FORBIDDEN_IMPORT in [f.kind for f in check_source(CUPY)]  # language "triton"


@pytest.mark.parametrize(("change", "expected"), [
    # CuPy's array maths or another stream in the Python host code
    (("kernel(((n", "cp.tanh(cp.asarray(x)); kernel(((n"), ErrorKind.LIBRARY_CALL),
    (("cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream)", "cp.cuda.Stream(non_blocking=True)"),
     ErrorKind.SIDE_STREAM),
    (("return y", "return torch.tanh(y)"), ErrorKind.TORCH_COMPUTE),
    # in the CUDA C++
    (("long long i =", "long long t0 = clock64(); long long i ="), ErrorKind.TIMER_ACCESS),
    (("long long i =", 'unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); long long i ='),
     ErrorKind.TIMER_ACCESS),
    (('extern "C"', '#include "/etc/passwd"\nextern "C"'), ErrorKind.FILE_OR_NETWORK),
    (("SRC = r", "# no kernel here\nSRC = r"), None),
])
def test_cupy_candidates_are_rejected_for_the_named_reason(change: tuple[str, str], expected: ErrorKind | None) -> None:
    source = CUPY.replace(*change)
    assert source != CUPY
    found = cuda_findings(source)
    assert (found[0] if found else None) == expected, found


@pytest.mark.parametrize(("change", "expected"), [
    (("auto y = torch::empty_like(x);", "auto y = torch::tanh(x);"), ErrorKind.TORCH_COMPUTE),
    (("auto y = torch::empty_like(x);", "auto y = torch::empty_like(x); x.sum();"), ErrorKind.TORCH_COMPUTE),
    (("auto y = torch::empty_like(x);", "cudaStream_t s; cudaStreamCreate(&s); auto y = torch::empty_like(x);"),
     ErrorKind.SIDE_STREAM),
    (("#include <ATen/cuda/CUDAContext.h>", "#include <ATen/cuda/CUDAContext.h>\n#include <cublas_v2.h>"),
     ErrorKind.LIBRARY_CALL),
    (("#include <ATen/cuda/CUDAContext.h>", "#include <ATen/cuda/CUDAContext.h>\n#include <thrust/transform.h>"),
     ErrorKind.LIBRARY_CALL),
    (("verbose=False)", "verbose=False, extra_ldflags=['-lcublas'])"), ErrorKind.LIBRARY_CALL),
    (("auto y = torch::empty_like(x);", "cudaEvent_t e; cudaEventCreate(&e); auto y = torch::empty_like(x);"),
     ErrorKind.TIMER_ACCESS),
    (("auto y = torch::empty_like(x);", 'system("ls"); auto y = torch::empty_like(x);'), ErrorKind.FILE_OR_NETWORK),
    (("from torch.utils.cpp_extension import load_inline", "from torch.utils.cpp_extension import load_inline, load"),
     ErrorKind.FILE_OR_NETWORK),
    (("verbose=False)", "verbose=False)  # a comment"), None),
])
def test_load_inline_candidates_are_rejected_for_the_named_reason(change: tuple[str, str],
                                                                 expected: ErrorKind | None) -> None:
    source = LOAD_INLINE.replace(*change)
    assert source != LOAD_INLINE
    found = cuda_findings(source)
    assert (found[0] if found else None) == expected, found


def test_an_allowed_library_passes_and_building_from_files_does_not() -> None:
    with_cublas = LOAD_INLINE.replace("#include <ATen/cuda/CUDAContext.h>",
                                      "#include <ATen/cuda/CUDAContext.h>\n#include <cublas_v2.h>")
    assert cuda_findings(with_cublas, allowed_libraries=["cublas"]) == []
    from_files = LOAD_INLINE + '\nother = torch.utils.cpp_extension.load(name="x", sources=["x.cu"])\n'
    assert ErrorKind.FILE_OR_NETWORK in cuda_findings(from_files)


# -- reading what the GPU ran ------------------------------------------------------------------

def kernel_event(name: str, stream: int, ts: int) -> dict[str, object]:
    return {"cat": "kernel", "name": name, "ts": ts, "args": {"stream": stream}}


def test_the_profilers_kernels_are_sorted_into_own_foreign_and_other_stream() -> None:
    events = [
        kernel_event("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>", 7, 0),
        kernel_event("gelu_kernel(float const*, float*, long long)", 7, 10),  # demangled (load_inline)
        kernel_event("gelu_kernel", 7, 20),  # extern "C" (CuPy)
        kernel_event("gelu_kernel", 13, 30),  # on a stream of its own
        kernel_event("sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32", 7, 40),  # cuBLAS
        {"cat": "gpu_memcpy", "name": "Memcpy DtoD", "ts": 50, "args": {"stream": 7}},
    ]
    log = LaunchLog()
    read_kernels(events, {"gelu_kernel"}, log)
    assert log.own == {"gelu_kernel": 3}
    assert log.foreign == ["sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32"]
    assert len(log.other_stream) == 1 and "stream 13" in log.other_stream[0]
    allowed = LaunchLog()
    read_kernels(events, {"gelu_kernel"}, allowed, allowed=lambda name: "gemm" in name)
    assert allowed.foreign == []
    empty = LaunchLog()
    read_kernels([], {"gelu_kernel"}, empty)
    assert empty.error is not None


def test_vendor_kernels_of_a_library_call_the_op_recorder_saw_are_not_foreign() -> None:
    # torch::matmul in a load_inline extension under the default policy: cuBLAS runs nvjet on CUDA 13 (H200)
    log = LaunchLog(foreign=["nvjet_sm90_hsh_8x64_64x16_4x1_v_bz_TNN"])
    runtime = CudaRuntime(on_phase=lambda phase, detail="": None)
    assert runtime.violations(log, {"gemm"}) == []
    unseen = runtime.violations(log)  # no GEMM recorded: the kernel is a library's, not the candidate's
    assert [kind for kind, _ in unseen] == [ErrorKind.LIBRARY_CALL] and "cublas" in unseen[0][1]
    assert [kind for kind, _ in runtime.violations(log, {"conv"})] == []  # cuDNN may run cuBLAS kernels
    cudnn = LaunchLog(foreign=["cudnn::ops::nchwToNhwcKernel"])
    assert [kind for kind, _ in runtime.violations(cudnn, {"gemm"})] == [ErrorKind.LIBRARY_CALL]


def test_mangled_and_demangled_symbols_map_to_their_kernel() -> None:
    own = ["gelu_kernel", "k"]
    assert own_name("_Z11gelu_kernelPKfPfx", own) == "gelu_kernel"
    assert own_name("void gelu_kernel<128>(float const*, float*, long long)", own) == "gelu_kernel"
    assert own_name("_Z1kPf", own) == "k"
    assert own_name("_Z11kernel_mainPf", own) is None  # "k" is not any word that starts with k
    assert own_name("vectorized_elementwise_kernel", own) is None
    assert register_limited_threads(32) == 1024 and register_limited_threads(128) == 512
    assert register_limited_threads(255) == 256


# -- compiling for sm_90 without a GPU -----------------------------------------------------------

@pytest.fixture(scope="module")
def cuda_spec(tmp_path_factory: pytest.TempPathFactory) -> Path:
    spec = tmp_path_factory.mktemp("spec") / "gelu_cuda.py"
    text = (GELU / "spec.py").read_text()
    spec.write_text(text[:text.index("KERNELEVO")] + 'KERNELEVO = {"language": "cuda", "variants": '
                    '{"small": {"batch_size": 4, "dim": 1000}}}\n')
    return spec


@NEEDS_NVCC
def test_without_a_gpu_a_cuda_kernel_is_compiled_for_sm90_and_said_to_need_a_gpu(cuda_spec: Path) -> None:
    with Evaluator(read_spec(str(cuda_spec)), EvalOptions(device="cpu")) as evaluator:
        result = evaluator.evaluate(CUPY)
        assert result.error == ErrorKind.NEEDS_GPU and not result.correct
        assert "compiled for sm_90" in result.message and "need a GPU" in result.message
        [kernel] = result.kernels
        assert kernel.name == "gelu_kernel" and kernel.registers and kernel.registers > 0
        assert kernel.spills == 0 and kernel.source == "aot-sm90"
        [build] = result.cuda
        assert build.form == "cupy" and build.arch == "sm_90" and build.ahead_of_time
        assert build.ptx and ".entry gelu_kernel" in build.ptx
        assert build.sass and "gelu_kernel" in build.sass
        broken = evaluator.evaluate(CUPY.replace("float v = x[i];", "float v = x[i]"))
        assert broken.error == ErrorKind.COMPILE_ERROR and "unit.cu" in broken.message
        assert "expected a \";\"" in broken.message


@NEEDS_NVCC
def test_a_kernelbench_load_inline_kernel_compiles_with_torchs_headers(cuda_spec: Path) -> None:
    with Evaluator(read_spec(str(cuda_spec)), EvalOptions(device="cpu")) as evaluator:
        result = evaluator.evaluate(LOAD_INLINE)
    assert result.error == ErrorKind.NEEDS_GPU, result.message
    assert [k.name for k in result.kernels] == ["gelu_kernel"] and result.cuda[0].form == "load_inline"


def test_a_cuda_search_on_a_machine_without_a_gpu_stops_before_it_starts(cuda_spec: Path, tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    done = subprocess.run([sys.executable, "-m", "kernelevo.cli", "run", str(cuda_spec), "--device", "cpu",
                           "--db", str(db), "--budget", "evals=2"], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "is a CUDA spec: its kernels need a GPU" in done.stderr + done.stdout
    assert not db.exists()  # refused before the database is opened: nothing is left behind


def test_a_cuda_spec_gets_a_compile_limit_load_inline_can_meet_unless_one_is_given(cuda_spec: Path) -> None:
    from kernelevo.records.options import CUDA_COMPILE_TIMEOUT_S

    spec = read_spec(str(cuda_spec))
    assert Evaluator(spec).options.compile_timeout_s == CUDA_COMPILE_TIMEOUT_S > EvalOptions().compile_timeout_s
    assert Evaluator(spec, EvalOptions(compile_timeout_s=30)).options.compile_timeout_s == 30
    triton = read_spec(str(GELU / "spec.py"))
    assert Evaluator(triton).options.compile_timeout_s == EvalOptions().compile_timeout_s
