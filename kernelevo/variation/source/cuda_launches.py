"""Where a CUDA candidate launches its kernels, and with what: read from both candidate forms.

- CuPy: ``kern = module.get_function("name")`` (or ``cupy.RawKernel(code, "name")``), then
  ``kern(grid, block, args, shared_mem=...)`` in Python; the block is a tuple, written out
  or bound to a name.
- C++ (``load_inline``, or host code in any CUDA text): ``name<args><<<grid, block, shared,
  stream>>>(...)``; the block is a literal, ``dim3(...)``, or a ``dim3`` / integer variable.

The template operator reads launches to find the literals it may tune (with their
positions) and to check the limits of a mutant (with their values).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from kernelevo.utils.cuda_text import chevron_launches, split_args
from kernelevo.utils.pyast import dotted_name

_INT_DECL = r"(?:const\s+|constexpr\s+)?(?:unsigned\s+)?(?:int|unsigned|auto|size_t|long|int64_t|uint32_t)\s+{name}" \
            r"\s*=\s*(\d+)[uUlL]*\s*;"
_DIM3_DECL = r"\bdim3\s+{name}\s*(?:=\s*dim3\s*)?[({{]([^;]*?)[)}}]\s*;"
_DIM3_INLINE = re.compile(r"\s*dim3\s*[({](.*)[)}]\s*$", re.S)
_IDENTIFIER = re.compile(r"\s*([A-Za-z_]\w*)\s*$")


@dataclass(frozen=True)
class CLaunch:
    """A ``<<<...>>>`` launch; every (offset, text) points into the code it was read from."""

    kernel: str
    template: list[tuple[int, str]]  # template arguments
    block: list[tuple[int, str]]  # block dimensions, through dim3 and integer variables
    block_names: set[str] = field(default_factory=set)  # names the block dimensions are written with
    shared: str = ""  # dynamic shared memory bytes (an expression), '' when none


def c_launches(code: str) -> list[CLaunch]:
    """The chevron launches of ``code`` (comments already blanked)."""
    found = []
    for launch in chevron_launches(code):
        template = split_args(launch.template, launch.template_at) if launch.template else []
        args = launch.args
        block, names = _block_dims(args[1], code) if len(args) > 1 else ([], set())
        shared = args[2][1] if len(args) > 2 else ""
        found.append(CLaunch(launch.kernel, template, block, names, shared))
    return found


def _block_dims(arg: tuple[int, str], code: str) -> tuple[list[tuple[int, str]], set[str]]:
    at, text = arg
    inline, name = _DIM3_INLINE.match(text), _IDENTIFIER.match(text)
    names = {name.group(1)} if name else set()
    if inline:
        dims = split_args(inline.group(1), at + inline.start(1))
    elif name and (decl := re.search(_DIM3_DECL.format(name=name.group(1)), code)):
        dims = split_args(decl.group(1), decl.start(1))
    elif name and (decl := re.search(_INT_DECL.format(name=name.group(1)), code)):
        dims = [(decl.start(1), decl.group(1))]
    else:
        dims = [(at, text)]
    names |= {m.group(1) for _, dim in dims if (m := _IDENTIFIER.match(dim))}
    return [(at + len(dim) - len(dim.lstrip()), dim.strip()) for at, dim in dims], names


@dataclass(frozen=True)
class PyLaunch:
    """A CuPy kernel call ``kern(grid, block, args, shared_mem=...)``."""

    # the kernel's name, template arguments included ("k<128>"); both names where the call picks
    # one of two, ``get_function("a" if vec else "b")``
    kernels: tuple[str, ...]
    block: list[ast.expr]  # block dimensions, through a name bound to a tuple
    shared: ast.expr | None


def single_assignments(tree: ast.AST) -> dict[str, ast.expr]:
    """Names (and ``self.`` attributes) bound exactly once in the module, to their value."""
    seen: dict[str, list[ast.expr]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            pairs = [(t, node.value) for t in targets]
            while any(isinstance(t, ast.Tuple) for t, _ in pairs):  # BM, BN = 64, 32
                pairs = [p for t, v in pairs for p in _unpack(t, v)]
            for target, value in pairs:
                name = target.id if isinstance(target, ast.Name) else \
                    target.attr if isinstance(target, ast.Attribute) else None
                if name:
                    seen.setdefault(name, []).append(value)
        elif isinstance(node, ast.AugAssign | ast.For) and isinstance(node.target, ast.Name):
            seen.setdefault(node.target.id, []).append(node.target)  # rebound: never a constant
    return {name: values[0] for name, values in seen.items() if len(values) == 1}


def _unpack(target: ast.expr, value: ast.expr) -> list[tuple[ast.expr, ast.expr]]:
    if not isinstance(target, ast.Tuple):
        return [(target, value)]
    if isinstance(value, ast.Tuple) and len(value.elts) == len(target.elts):
        return list(zip(target.elts, value.elts, strict=True))
    return [(t, t) for t in target.elts]  # unpacked from something unknown: bound, to no known value


def kernel_objects(tree: ast.AST) -> dict[str, tuple[str, ...]]:
    """Python names bound to CuPy kernels, to the kernels' names (``get_function``'s argument;
    both names where it picks one, ``get_function("a" if vec else "b")``)."""
    return {name: kernels for name, value in single_assignments(tree).items() if (kernels := _kernel_names(value))}


def _kernel_names(node: ast.AST) -> tuple[str, ...]:
    if not isinstance(node, ast.Call):
        return ()
    last = (dotted_name(node.func) or "").split(".")[-1] or \
        (node.func.attr if isinstance(node.func, ast.Attribute) else "")
    argument = node.args[0] if last == "get_function" and node.args else \
        node.args[1] if last == "RawKernel" and len(node.args) > 1 else None
    if last == "RawKernel":
        argument = next((kw.value for kw in node.keywords if kw.arg == "name"), argument)
    choices = [argument.body, argument.orelse] if isinstance(argument, ast.IfExp) else [argument]
    names = tuple(c.value for c in choices if isinstance(c, ast.Constant) and isinstance(c.value, str))
    return names if len(names) == len(choices) else ()


def py_launches(tree: ast.AST) -> list[PyLaunch]:
    """Each CuPy launch ``kernel(grid, block, args, shared_mem=...)``."""
    objects, bound = kernel_objects(tree), single_assignments(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        callee = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        kernels = objects.get(callee or "", ()) if callee else _kernel_names(func)
        if not kernels:
            continue
        keywords = {kw.arg: kw.value for kw in node.keywords if kw.arg}
        block = node.args[1] if len(node.args) > 1 else keywords.get("block")
        if isinstance(block, ast.Name) and isinstance(bound.get(block.id), ast.Tuple):
            block = bound[block.id]
        dims = list(block.elts) if isinstance(block, ast.Tuple) else [block] if block is not None else []
        found.append(PyLaunch(kernels, dims, keywords.get("shared_mem")))
    return found


def template_strings(tree: ast.AST) -> list[ast.Constant]:
    """String constants that name a kernel instantiation: ``get_function("k<128>")``, ``name_expressions``."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        candidates: list[ast.expr] = []
        if isinstance(node.func, ast.Attribute) and node.func.attr == "get_function":
            candidates += node.args[:1]
        for kw in node.keywords:
            if kw.arg == "name_expressions" and isinstance(kw.value, ast.List | ast.Tuple):
                candidates += kw.value.elts
        found += [c for c in candidates if isinstance(c, ast.Constant) and isinstance(c.value, str) and "<" in c.value]
    return found
