"""Structural moves that compute a transcendental function through the hardware's approximations
(:mod:`kernelevo.variation.moves.restructure` says when each pays, and offers them):

- tanh through exp2: ``libdevice.tanh(z)`` becomes ``1 - 2 / (1 + exp2(2 z log2 e))``;
- exp through exp2: libdevice's exact ``exp(x)`` becomes ``exp2(x log2 e)``;
- log through lg2: Triton's and libdevice's ``log(x)`` become the hardware's ``lg2.approx.f32`` times ln 2
  (inline PTX: never on the CPU interpreter).

Each rewrites every call of its function in a kernel as one move, a call nested in another's argument with it.
"""

from __future__ import annotations

import ast
import functools

from kernelevo.utils.pyast import dotted_name
from kernelevo.variation.source.source_text import Move, SourceText

TWO_LOG2_E = 2.885390081777927  # tanh(z) = 1 - 2 / (1 + e^(2z)), and e^(2z) = 2^(2z log2 e)
LOG2_E = 1.4426950408889634  # e^x = 2^(x log2 e)
LN_2 = 0.6931471805599453  # ln x = log2(x) ln 2
# the hardware's log2 (subnormal inputs included: no .ftz), in fp32 whatever the argument's type
HW_LOG2 = 'tl.inline_asm_elementwise("lg2.approx.f32 $0, $1;", "=f,f", [({x}).to(tl.float32)], ' \
          'dtype=tl.float32, is_pure=True, pack=1)'


def _one_argument_call(call: ast.Call, function: str, modules: tuple[str, ...]) -> bool:
    """A one-argument call of ``function`` from a module whose name has one of ``modules`` in it
    (``libdevice.tanh``, ``tl_math.tanh``, ...)."""
    name = dotted_name(call.func) or ""
    return name.endswith(f".{function}") and any(m in name for m in modules) and len(call.args) == 1


def _rewritten_calls(text: SourceText, kernel: ast.FunctionDef, function: str, modules: tuple[str, ...],
                     formula: str, label: str) -> list[Move]:
    """One move rewriting every ``function`` call of ``kernel`` as ``formula`` of its argument (``{x}``);
    a call inside another is rewritten with it."""
    calls = [c for c in ast.walk(kernel) if isinstance(c, ast.Call) and _one_argument_call(c, function, modules)]

    def outermost(node: ast.AST, exclude: ast.AST | None = None) -> list[ast.Call]:
        inside = [c for c in calls if c is not exclude and c in ast.walk(node)]
        return [c for c in inside if not any(c is not o and c in ast.walk(o) for o in inside)]

    def rewritten(call: ast.Call) -> str:
        arg_start, arg_end = text.span(call.args[0])
        argument = text.source[arg_start:arg_end]
        for inner in sorted(outermost(call.args[0], call), key=lambda c: text.span(c)[0], reverse=True):
            start, end = text.span(inner)
            argument = argument[:start - arg_start] + rewritten(inner) + argument[end - arg_start:]
        return formula.format(x=argument)

    edits = [(*text.span(call), rewritten(call)) for call in outermost(kernel)]
    if not edits:
        return []
    return [Move(f"{kernel.name}: {label}", functools.partial(text.splice, edits))]


def fast_tanh(text: SourceText, kernel: ast.FunctionDef) -> list[Move]:
    return _rewritten_calls(text, kernel, "tanh", ("libdevice", "math"),
                            f"(1.0 - 2.0 / (1.0 + tl.exp2({TWO_LOG2_E} * ({{x}}))))", "tanh through exp2")


def fast_exp(text: SourceText, kernel: ast.FunctionDef) -> list[Move]:
    # libdevice's exact exp only: a tl.exp or tl_math.exp is Triton's own, lowered as its author chose
    return _rewritten_calls(text, kernel, "exp", ("libdevice",), f"tl.exp2({LOG2_E} * ({{x}}))", "exp through exp2")


def fast_log(text: SourceText, kernel: ast.FunctionDef) -> list[Move]:
    # Triton's own log (tl.log, tl_math.log), unlike its exp, is no hardware instruction: libdevice's logf
    return _rewritten_calls(text, kernel, "log", ("libdevice", "tl"), f"({HW_LOG2} * {LN_2})", "log through lg2")


__all__ = ["HW_LOG2", "LN_2", "LOG2_E", "TWO_LOG2_E", "fast_exp", "fast_log", "fast_tanh"]
