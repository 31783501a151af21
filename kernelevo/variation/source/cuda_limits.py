"""The limits a CUDA mutant must keep to compile and launch on Hopper (sm_90: H100, H200).

The template operator drops a mutant that breaks one of them, where the values can be
read from the source (literals, constants, template arguments and simple arithmetic on
them); a value it cannot read is not judged here, and the evaluator still is.

- a block has at most 1024 threads, (1024, 1024, 64) per dimension, and no more than its
  kernel's ``__launch_bounds__``;
- a kernel that is warp-synchronous (warp shuffles and votes, ``wmma``, ``mma.sync``) runs
  whole warps: its blocks are multiples of 32 threads;
- static ``__shared__`` arrays fit 48 KiB (ptxas refuses more), and with the dynamic
  shared memory of a launch 227 KiB per block;
- a per-thread array has at most 512 elements (beyond, it lives in local memory and the
  unrolled code takes minutes to compile);
- every ``static_assert`` still holds.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Mapping

from kernelevo.utils.cuda_source import CudaSource, find_cuda
from kernelevo.utils.cuda_text import (
    TYPE_BYTES,
    Function,
    blank_comments,
    device_functions,
    evaluate,
    global_functions,
    split_args,
)
from kernelevo.variation.source.cuda_launches import c_launches, py_launches, single_assignments, template_strings

MAX_THREADS = 1024
MAX_DIMS = (1024, 1024, 64)
STATIC_SHARED = 48 * 1024
MAX_SHARED = 227 * 1024
MAX_THREAD_ARRAY = 512
WARP_SYNC = re.compile(r"__shfl|__reduce_\w+_sync|__ballot_sync|__any_sync|__all_sync|wmma::|mma\.sync|wgmma|"
                       r"tiled_partition")
_DEFINE = re.compile(r"#[ \t]*define[ \t]+(\w+)[ \t]+([^\n\\]+?)[ \t]*$", re.M)  # object-like, one line
_CONST = re.compile(r"\b(?:constexpr|const)\s+(?:static\s+)?(?:unsigned\s+)?(?:int|unsigned|long|size_t|int64_t|"
                    r"int32_t|uint32_t|auto|short)\s+(\w+)\s*=\s*([^;]+);")
_KEYWORDS = frozenset({"return", "else", "case", "goto", "do", "throw", "delete"})  # `else x[3] = v` declares nothing
_OPTION = re.compile(r"^-D\s*(\w+)\s*=\s*(\d+)$")
_BOUNDS = re.compile(r"__global__\s+[\w:\s\*&]*?__launch_bounds__\s*\(([^,)]+)[^)]*\)[\w:\s\*&]*?\b(\w+)\s*\(")
_ARRAY = re.compile(r"^\s*(?:__shared__\s+)?(?:__align__\s*\(\s*\d+\s*\)\s*)?(?:volatile\s+|const\s+)*"
                    r"([A-Za-z_][\w:]*(?:\s+(?:int|char|long|short))*)\s+(?:__align__\s*\(\s*\d+\s*\)\s*)?(\w+)\s*"
                    r"((?:\[[^\]]*\]\s*)+)(?:=.*)?$", re.S)


def problems(source: str) -> list[str]:
    """What breaks a limit in ``source``; empty when nothing known does."""
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        return [f"not valid Python: {exc.msg}"]
    cuda = find_cuda(source)
    env = _constants(tree, cuda)
    codes = [blank_comments(c) for u in cuda.units for c in (u.code, u.host_code) if c] + \
        [blank_comments(c) for c in cuda.loose]
    kernels = {f.name: f for code in codes for f in global_functions(code)}
    # warp-synchronous code is often in __device__ helpers: judged by the kernel's whole unit
    warp_sync = {f.name for code in codes if WARP_SYNC.search(code) for f in global_functions(code)}
    bounds = {name: evaluate(expr, env) for code in codes for expr, name in _BOUNDS.findall(code)}
    instances = _instances(tree, codes, env)
    found: list[str] = []
    dynamic: dict[str, int] = {}
    for kernel, dims, shared in _launches(tree, codes, env):
        found += _block_problems(kernel, dims, kernel in warp_sync, bounds.get(kernel))
        if shared is not None:
            dynamic[kernel] = max(dynamic.get(kernel, 0), shared)
    devices = {f.name: f for code in codes for f in device_functions(code)}
    for f in kernels.values():
        params = re.findall(r"(\w+)\s*(?:=[^,]*)?(?:,|$)", f.template) if f.template else []
        bodies = [f.body] + [d.body for d in _callees(f, devices)]
        for args in instances.get(f.name, [[]]) if params else [[]]:
            scope = {**env, **{p: a for p, a in zip(params, args, strict=False) if a is not None}}
            found += _memory_problems(f.name, bodies, scope, dynamic.get(f.name, 0))
    for code in codes:
        for condition in re.findall(r"\bstatic_assert\s*\(([^;]*)\)\s*;", code):
            parts = split_args(condition)
            if parts and evaluate(parts[0][1], env) == 0:
                found.append(f"static_assert({parts[0][1].strip()}) fails")
    return list(dict.fromkeys(found))  # a kernel instantiated twice the same way says it once


def _constants(tree: ast.AST, cuda: CudaSource) -> dict[str, int]:
    """Integer names the CUDA sees: its #defines and constants, Python's constants, -D options.

    Literal #defines first, then Python's constants and the options (which override #ifndef
    defaults), then #defines and constants written as expressions of those (``LDS (BK + PAD)``).
    """
    codes = [blank_comments(c) for c in [u.code for u in cuda.units] + [u.host_code for u in cuda.units] + cuda.loose]
    env: dict[str, int] = {}
    expressions: list[tuple[str, str]] = []
    for code in codes:
        for name, value in _DEFINE.findall(code):
            if literal := re.fullmatch(r"\(?\s*(\d+)[uUlL]*\s*\)?", value.strip()):
                env[name] = int(literal.group(1))
            else:
                expressions.append((name, value))
        expressions += _CONST.findall(code)
    env |= {name: int(node.value) for name, node in single_assignments(tree).items()
            if isinstance(node, ast.Constant) and type(node.value) is int}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and (m := _OPTION.match(node.value)):
            env[m.group(1)] = int(m.group(2))
    for _ in range(4):  # expressions of expressions, in whatever order they were written
        for name, value in expressions:
            if name not in env and (number := evaluate(value, env)) is not None:
                env[name] = number
    return env


def _instances(tree: ast.AST, codes: list[str], env: Mapping[str, int]) -> dict[str, list[list[int | None]]]:
    """The template arguments each kernel is instantiated with, at launches and in CuPy's names."""
    found: dict[str, list[list[int | None]]] = {}
    for code in codes:
        for launch in c_launches(code):
            if launch.template:
                found.setdefault(launch.kernel, []).append([evaluate(a, env) for _, a in launch.template])
    for node in template_strings(tree):
        assert isinstance(node.value, str)
        for name, args in re.findall(r"(\w+)\s*<([^<>]*)>", node.value):
            found.setdefault(name, []).append([evaluate(a, env) for _, a in split_args(args)])
    return found


_Launch = tuple[str, list[int | None], int | None]


def _launches(tree: ast.AST, codes: list[str], env: Mapping[str, int]) -> list[_Launch]:
    """(kernel, block dimensions, dynamic shared bytes) of every launch whose block is written out."""
    found = []
    for code in codes:
        for launch in c_launches(code):
            shared = evaluate(launch.shared, env) if launch.shared.strip() else None
            found.append((launch.kernel, [evaluate(d, env) for _, d in launch.block], shared))
    for py in py_launches(tree):
        shared = evaluate(py.shared, env) if py.shared is not None else None
        dims = [evaluate(d, env) for d in py.block]
        found += [(kernel.split("<")[0].strip(), dims, shared) for kernel in py.kernels]
    return found


def _block_problems(kernel: str, dims: list[int | None], warp_sync: bool, bound: int | None) -> list[str]:
    known = [d for d in dims if d is not None]
    if any(d < 1 or d > limit for d, limit in zip(known, MAX_DIMS, strict=False)):
        return [f"{kernel}: block {dims} is outside (1..1024, 1..1024, 1..64)"]
    if len(known) < len(dims) or not dims:
        return []
    threads = math.prod(known)
    if threads > MAX_THREADS:
        return [f"{kernel}: {threads} threads per block, more than {MAX_THREADS}"]
    if bound is not None and threads > bound:
        return [f"{kernel}: {threads} threads per block, more than its __launch_bounds__({bound})"]
    if warp_sync and threads % 32:
        return [f"{kernel}: {threads} threads per block is not whole warps, and the kernel is warp-synchronous"]
    return []


def _elements(dims: str, env: Mapping[str, int]) -> int | None:
    values = [evaluate(d, env) for d in re.findall(r"\[([^\]]*)\]", dims)]
    return None if None in values else math.prod(v for v in values if v is not None)


def _callees(kernel: Function, devices: dict[str, Function]) -> list[Function]:
    """The __device__ functions a kernel calls, directly or through others: their shared memory is its."""
    found: dict[str, Function] = {}
    bodies = [kernel.body]
    while bodies:
        for name in re.findall(r"\b(\w+)\s*(?:<[^<>;]*>)?\s*\(", bodies.pop()):
            if name in devices and name not in found:
                found[name] = devices[name]
                bodies.append(devices[name].body)
    return list(found.values())


def _memory_problems(kernel: str, bodies: list[str], env: Mapping[str, int], dynamic: int) -> list[str]:
    static = 0
    found = []
    for statement in (s for body in bodies for s in re.split(r"[;{}]", body)):
        match = _ARRAY.match(statement)
        if not match or "extern" in statement or match.group(1) in _KEYWORDS:
            continue
        if "__shared__" in statement:  # every declarator: __shared__ float a[16], b[16];
            arrays = re.findall(r"\b(\w+)\s*((?:\[[^\]]*\]\s*)+)", statement[match.start(2):])
            size = TYPE_BYTES.get(" ".join(match.group(1).split("::")[-1].split()), 4)
            static += sum(size * (_elements(dims, env) or 0) for _, dims in arrays)
        elif (count := _elements(match.group(3), env) or 0) > MAX_THREAD_ARRAY:
            found.append(f"{kernel}: a per-thread array {match.group(2)} of {count} elements")
    if static > STATIC_SHARED:
        found.append(f"{kernel}: {static} bytes of static shared memory, more than {STATIC_SHARED}")
    elif static + dynamic > MAX_SHARED:
        found.append(f"{kernel}: {static + dynamic} bytes of shared memory per block, more than {MAX_SHARED}")
    return found
