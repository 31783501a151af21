"""Reading CUDA C++ text without a compiler: comments, brackets, functions, loops, launches, numbers.

These helpers serve the static analyses of CUDA candidates (the descriptors and the
template operator). They work on tokens and brackets, not on a C++ parse, so they read
the code that people and LLMs write for kernels; anything they cannot read they leave
out rather than guess. Every offset is an index into the text given, and
:func:`blank_comments` keeps offsets valid by blanking comments to spaces.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from dataclasses import dataclass

from kernelevo.utils.cuda_source import GLOBAL_FUNCTION

_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_PAIRS = {"(": ")", "[": "]", "{": "}", "<": ">"}
_LOOP = re.compile(r"\b(for|while)\s*\(|\bdo\s*\{")
CHEVRON = re.compile(r"\b(\w+)\s*(<[^<>;]*>)?\s*<<<")
# bytes of the element types kernels declare in shared memory (a template type counts as 4)
TYPE_BYTES = {
    "char": 1, "int8_t": 1, "uint8_t": 1, "bool": 1, "unsigned char": 1,
    "short": 2, "unsigned short": 2, "half": 2, "__half": 2, "__nv_bfloat16": 2, "nv_bfloat16": 2,
    "int": 4, "unsigned": 4, "unsigned int": 4, "float": 4, "int32_t": 4, "uint32_t": 4, "half2": 4, "__half2": 4,
    "__nv_bfloat162": 4,
    "double": 8, "long": 8, "int64_t": 8, "uint64_t": 8, "long long": 8, "unsigned long long": 8, "float2": 8,
    "int2": 8,
    "float4": 16, "int4": 16, "uint4": 16, "double2": 16,
}


def blank_comments(code: str) -> str:
    """``code`` with comments replaced by spaces (newlines kept), so offsets stay valid."""
    return _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), code)


def closing(code: str, at: int) -> int:
    """Index of the bracket closing the one at ``code[at]``, or -1 when it is not closed."""
    opener = code[at]
    closer, depth = _PAIRS[opener], 0
    for i in range(at, len(code)):
        if code[i] == opener:
            depth += 1
        elif code[i] == closer:
            depth -= 1
            if depth == 0:
                return i
    return -1


def split_args(text: str, start: int = 0) -> list[tuple[int, str]]:
    """Top-level comma-separated parts of ``text`` as (offset + ``start``, part), brackets respected."""
    parts, depth, begin = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append((start + begin, text[begin:i]))
            begin = i + 1
    parts.append((start + begin, text[begin:]))
    return [(at, part) for at, part in parts if part.strip()]


@dataclass(frozen=True)
class Function:
    """A ``__global__`` function: its name, template parameter text, parameter text and body."""

    name: str
    template: str  # text between template's angle brackets, '' for a plain kernel
    params: str
    body: str
    start: int  # offset of the body's opening brace
    end: int  # offset of its closing brace

    @property
    def pointers(self) -> list[str]:
        """Names of the pointer parameters: the kernel's global memory."""
        return [m.group(1) for p in self.params.split(",") if "*" in p and (m := re.search(r"(\w+)\s*$", p))]


DEVICE_FUNCTION = re.compile(r"__device__\s+(?:(?:__forceinline__|__noinline__|inline|static|constexpr)\s+)*"
                             r"[\w:<>,\*&\s]+?\b(\w+)\s*\(")


def global_functions(code: str) -> list[Function]:
    """Every ``__global__`` function with a body in ``code`` (comments blanked first)."""
    return functions(code, GLOBAL_FUNCTION)


def device_functions(code: str) -> list[Function]:
    """Every ``__device__`` function with a body in ``code``: where kernels often keep their work."""
    return functions(code, DEVICE_FUNCTION)


def functions(code: str, pattern: re.Pattern[str]) -> list[Function]:
    """Functions whose head ``pattern`` matches up to the opening parenthesis, name in group 1."""
    code = blank_comments(code)
    found = []
    for match in pattern.finditer(code):
        open_paren = match.end() - 1
        close_paren = closing(code, open_paren)
        brace = code.find("{", close_paren)
        if close_paren < 0 or brace < 0 or ";" in code[close_paren:brace]:
            continue  # a declaration without a body
        end = closing(code, brace)
        if end < 0:
            continue
        head = code[max(0, match.start() - 300):match.start()]
        template = re.search(r"template\s*<([^{};]*)>\s*$", head)
        found.append(Function(match.group(1), template.group(1) if template else "",
                              code[open_paren + 1:close_paren], code[brace + 1:end], brace, end))
    return found


@dataclass(frozen=True)
class Loop:
    start: int
    end: int  # one past the loop's last character
    header: str  # the text between the loop's parentheses ('' for do)
    text: str  # the whole loop, header and body


def loops(code: str) -> list[Loop]:
    """``for``, ``while`` and ``do`` loops of ``code``, outer before inner."""
    found = []
    for match in _LOOP.finditer(code):
        if match.group(1):  # for ( ... ) or while ( ... )
            paren = match.end() - 1
            close = closing(code, paren)
            if close < 0:
                continue
            header, rest = code[paren + 1:close], close + 1
            while rest < len(code) and code[rest].isspace():
                rest += 1
            if code[match.start():match.start() + 5] == "while" and rest < len(code) and code[rest] == ";":
                continue  # the tail of a do-while, already counted
            end = closing(code, rest) + 1 if rest < len(code) and code[rest] == "{" else code.find(";", rest) + 1
        else:
            header, end = "", closing(code, match.end() - 1) + 1
        if end > 0:
            found.append(Loop(match.start(), end, header, code[match.start():end]))
    return found


@dataclass(frozen=True)
class Chevron:
    """A launch written ``kernel<args><<<grid, block, shared, stream>>>(...)``."""

    kernel: str
    template: str  # the template arguments' text without brackets, '' when none
    template_at: int  # offset of that text
    args: list[tuple[int, str]]  # (offset, text) of grid, block, shared memory, stream


def chevron_launches(code: str) -> list[Chevron]:
    found = []
    for match in CHEVRON.finditer(code):
        end = code.find(">>>", match.end())
        if end < 0:
            continue
        template_at = match.start(2) + 1 if match.group(2) else -1
        template = match.group(2)[1:-1] if match.group(2) else ""
        found.append(Chevron(match.group(1), template, template_at, split_args(code[match.end():end], match.end())))
    return found


# -- integer expressions ------------------------------------------------------------------------
_C_REWRITES = (
    (re.compile(r"\b(\d+)[uUlL]+\b"), r"\1"),
    (re.compile(r"\bsizeof\s*\(\s*([\w ]+?)\s*\)"), lambda m: str(TYPE_BYTES.get(m.group(1), f"sizeof_{m.group(1)}"))),
    (re.compile(r"\b(?:static_cast|reinterpret_cast)\s*<[^<>]*>"), ""),
    (re.compile(r"\((?:unsigned\s+)?(?:int|long|size_t|int64_t|int32_t|unsigned)\)"), ""),
    (re.compile(r"&&"), " and "),
    (re.compile(r"\|\|"), " or "),
    (re.compile(r"!(?!=)"), " not "),
    (re.compile(r"(?<![/])/(?![/=])"), "//"),
    (re.compile(r"\btrue\b"), "1"),
    (re.compile(r"\bfalse\b"), "0"),
)
_BINARY = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.FloorDiv: lambda a, b: a // b, ast.Div: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
    ast.LShift: lambda a, b: a << b if b < 64 else None, ast.RShift: lambda a, b: a >> b,
    ast.BitAnd: lambda a, b: a & b, ast.BitOr: lambda a, b: a | b, ast.BitXor: lambda a, b: a ^ b,
}
_COMPARE = {
    ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
}


def c_to_python(expr: str) -> str:
    """A C integer expression in Python syntax (``/`` becomes ``//``, ``&&`` ``and``, ...)."""
    for pattern, replacement in _C_REWRITES:
        expr = pattern.sub(replacement, expr)
    return expr.strip()


def evaluate(expr: str | ast.expr, env: Mapping[str, int]) -> int | None:
    """The integer value of a C expression (text) or a Python expression (node); None when unknown."""
    if isinstance(expr, str):
        try:
            expr = ast.parse(c_to_python(expr), mode="eval").body
        except SyntaxError:
            return None
    try:
        return _evaluate(expr, env)
    except (ZeroDivisionError, OverflowError):
        return None


def _evaluate(node: ast.expr, env: Mapping[str, int]) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return int(node.value)
    if isinstance(node, ast.Name):
        return env.get(node.id)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _evaluate(node.left, env), _evaluate(node.right, env)
        return None if left is None or right is None else _BINARY[type(node.op)](left, right)
    if isinstance(node, ast.UnaryOp):
        value = _evaluate(node.operand, env)
        if value is None:
            return None
        return {ast.USub: -value, ast.UAdd: value, ast.Not: int(not value), ast.Invert: ~value}[type(node.op)]
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
        left, right = _evaluate(node.left, env), _evaluate(node.comparators[0], env)
        return None if left is None or right is None else int(_COMPARE[type(node.ops[0])](left, right))
    if isinstance(node, ast.BoolOp):
        values = [_evaluate(v, env) for v in node.values]
        if None in values:
            return None
        return int(all(values) if isinstance(node.op, ast.And) else any(values))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max") \
            and node.args and not node.keywords:
        args = [_evaluate(a, env) for a in node.args]
        return None if None in args else (min if node.func.id == "min" else max)(a for a in args if a is not None)
    if isinstance(node, ast.Tuple) and len(node.elts) == 1:  # (256) written as a one-element tuple
        return _evaluate(node.elts[0], env)
    return None
