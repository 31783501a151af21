"""Reading CUDA C++ text: comments, functions, loops, launches and integer expressions."""

from __future__ import annotations

from kernelevo.utils.cuda_text import (
    blank_comments,
    chevron_launches,
    device_functions,
    evaluate,
    global_functions,
    loops,
)

CODE = """
template <int B>
__global__ void __launch_bounds__(B) k(const float* __restrict__ x, float* y, int n) {  // a comment
    for (int i = threadIdx.x; i < n; i += B) { y[i] = x[i]; }
    do { n -= 1; } while (n > 0);
}
__device__ __forceinline__ float twice(float v) { return 2 * v; }
void run(const float* x, float* y, int n) { k<256><<<(n + 255) / 256, 256, 0, 0>>>(x, y, n); }
"""


def test_comments_become_spaces_and_offsets_stay() -> None:
    blanked = blank_comments("a /* b\nc */ d // e\nf")
    assert len(blanked) == len("a /* b\nc */ d // e\nf") and blanked.split() == ["a", "d", "f"]


def test_functions_loops_and_launches() -> None:
    (kernel,) = global_functions(CODE)
    assert (kernel.name, kernel.template.strip(), kernel.pointers) == ("k", "int B", ["x", "y"])
    assert [f.name for f in device_functions(CODE)] == ["twice"]
    assert [loop.header for loop in loops(kernel.body)] == ["int i = threadIdx.x; i < n; i += B", ""]
    (launch,) = chevron_launches(CODE)
    assert (launch.kernel, launch.template) == ("k", "256")
    assert [arg.strip() for _, arg in launch.args] == ["(n + 255) / 256", "256", "0", "0"]


def test_integer_expressions_in_c_and_python() -> None:
    assert evaluate("(BM / TM) * (BN / TN)", {"BM": 64, "TM": 4, "BN": 64, "TN": 4}) == 256
    assert evaluate("2 * 16u * sizeof(float)", {}) == 128
    assert evaluate("BM % TM == 0 && BN >= 8", {"BM": 64, "TM": 4, "BN": 4}) == 0
    assert evaluate("n * 2", {}) is None
