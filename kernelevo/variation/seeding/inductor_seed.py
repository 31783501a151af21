"""A :class:`~kernelevo.variation.seeding.inductor_capture.Capture` of inductor's output, as a standalone candidate.

The module inductor writes needs inductor at run time: an autotuning launcher per kernel,
private allocators, ``torch._C`` guards. The candidate this writes needs only torch and
triton, passes the evaluator's static checks as any hand-written kernel must, and launches
each kernel the way inductor's launcher did after autotuning:

- each kernel keeps its body, with ``@triton.jit`` alone; inductor's Triton helpers it
  calls are copied in beside it (``triton_helpers.maximum`` becomes ``maximum``);
- each launch ``K.run(args..., stream=s)`` becomes ``K[grid](args..., XBLOCK=..., num_warps=...,
  num_stages=...)`` with the configuration inductor chose, the grid written with
  ``triton.cdiv`` so the template operator changes a block size and its grid together;
- where the candidate dispatches on its inputs' sizes, the kernels and launches for sizes
  other than the timed ones are marked ``# kernelevo: keep`` (:mod:`kernelevo.utils.kept`);
- the host code of ``call`` becomes ``ModelNew.forward``: its arguments are read from the
  inputs, the parameters (created under the reference's names, so the evaluator loads the
  reference's values) and their sizes; buffers are ``torch.empty_strided`` on the inputs'
  device, views ``torch.as_strided``.

A module that does anything else on the host (a library call, an aten op, a CPU buffer)
cannot become a candidate: :class:`ConversionError` names what.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass

from kernelevo.utils.kept import COMMENT
from kernelevo.variation.seeding.inductor_capture import Capture
from kernelevo.variation.seeding.inductor_host import ConversionError, dotted, host_lines, module_path, state_path

HEADER = '''"""{spec}: torch.compile's (inductor's) own Triton kernels, standalone.

Captured with torch {torch} and Triton {triton} on {gpu}{options}, launched with the
configurations inductor's autotuner chose there.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice
'''
class _Helpers(ast.NodeTransformer):
    """``triton_helpers.X`` -> ``X``; inductor's ``math`` (triton's) -> ``tl_math``."""

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if isinstance(node.value, ast.Name) and node.value.id == "triton_helpers":
            return ast.copy_location(ast.Name(node.attr, ast.Load()), node)
        if isinstance(node.value, ast.Name) and node.value.id == "math":
            node.value = ast.Name("tl_math", ast.Load())
        self.generic_visit(node)
        return node


def _kernel_sources(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """Each ``NAME = async_compile.triton('NAME', '''source''', ...)``: its @triton.jit functions."""
    found: dict[str, ast.FunctionDef] = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        if dotted(node.value.func) != "async_compile.triton":
            continue
        name = node.targets[0].id if isinstance(node.targets[0], ast.Name) else ""
        literal = node.value.args[1] if len(node.value.args) > 1 else None
        text = literal.value if isinstance(literal, ast.Constant) else None
        if not isinstance(text, str):
            raise ConversionError(f"kernel {name}: its source is not a string literal")
        functions = [f for f in ast.parse(text).body if isinstance(f, ast.FunctionDef)]
        if not any(f.name == name for f in functions):
            raise ConversionError(f"kernel {name}: no function of that name in its source")
        for f in functions:  # the kernel, and the combine functions of its scans (_triton_helper_fn_add0)
            f.decorator_list = [ast.Attribute(ast.Name("triton", ast.Load()), "jit", ast.Load())]
            found.setdefault(f.name, _Helpers().visit(f))
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and \
                dotted(node.value.func).startswith("async_compile.") and \
                dotted(node.value.func) != "async_compile.triton":
            raise ConversionError(f"inductor compiled a non-Triton kernel ({dotted(node.value.func)})")
    return found


def _init(capture: Capture) -> list[str]:
    """``__init__``'s lines for the capture's parameters and buffers (:func:`state_init_lines`)."""
    return state_init_lines(capture.state, capture.buffers)


def state_init_lines(state: dict[str, list[int | str]], buffers: Sequence[str]) -> list[str]:
    """``__init__``'s lines: the reference's parameters and buffers under its names, in ``nn.ModuleDict``s
    for the modules that hold them (whatever their container: ``nn.Sequential``'s "0" is a key); a
    shape's str reads ``get_init_inputs()`` as ``init`` ("init[1]")."""
    lines = ["super().__init__()"]
    made: set[str] = set()
    for name, shape in state.items():
        *modules, leaf = name.split(".")
        for depth in range(1, len(modules) + 1):
            if ".".join(modules[:depth]) not in made:
                lines.append(f"{module_path(modules[:depth])} = nn.ModuleDict()")
                made.add(".".join(modules[:depth]))
        dims = ", ".join(str(d) for d in shape)
        empty = f"torch.empty(({dims}{',' if len(shape) == 1 else ''}))"
        if name in buffers:
            lines.append(f"{module_path(modules)}.register_buffer({leaf!r}, {empty})")
        elif leaf.isidentifier():
            lines.append(f"{state_path(name)} = nn.Parameter({empty})")
        else:
            lines.append(f"{module_path(modules)}.register_parameter({leaf!r}, nn.Parameter({empty}))")
    return lines


@dataclass
class _Part:
    """One capture's kernels (renamed apart from the other captures') and the host code that launches them."""

    kernels: dict[str, ast.FunctionDef]
    helpers: dict[str, str]
    host: list[str]  # the lines of a forward(self, *inputs)


def _part(capture: Capture, suffix: str) -> _Part:
    kernels = _kernel_sources(ast.parse(capture.code))  # none where libraries do all the work (attention)
    inputs = [a for a in capture.args if a.kind == "input"]
    if not inputs:
        raise ConversionError("inductor's call() reads no input")
    host = [f"device = inputs[{inputs[0].index}].device", *host_lines(capture, kernels)]
    if suffix and kernels:
        pattern = re.compile(r"\b(" + "|".join(map(re.escape, kernels)) + r")\b")
        host = [pattern.sub(lambda m: m.group(1) + suffix, line) for line in host]
        for fn in kernels.values():
            for node in ast.walk(fn):
                if isinstance(node, ast.Name) and node.id in kernels:  # a scan's combine function
                    node.id += suffix
            fn.name += suffix
        kernels = {fn.name: fn for fn in kernels.values()}
    helpers = {name: ast.unparse(_Helpers().visit(ast.parse(src))) for name, src in capture.helpers.items()}
    return _Part(kernels, helpers, host)


_KEEP = f"{COMMENT} (the timing never runs these sizes)"
# Kernels that make TMA descriptors on the device (inductor's persistent TMA GEMM) need global scratch
# memory at each launch, which Triton asks its allocator for; inductor's launcher sets one, so the
# candidate must too.
_SCRATCH = """

def _scratch(size: int, alignment: int, stream):
    return torch.empty(size, dtype=torch.int8, device="cuda")


triton.set_allocator(_scratch)
"""


def _kernel_text(kernel: ast.FunctionDef, *, keep: bool) -> str:
    lines = ast.unparse(kernel).split("\n")
    if keep:
        at = next(i for i, line in enumerate(lines) if line.startswith("def "))
        lines[at] += _KEEP
    return "\n".join(lines)


def _sizes(capture: Capture) -> str:
    return repr(tuple(tuple(shape) for shape in capture.input_shapes if shape is not None))


def to_candidate(generic: Capture | None, by_sizes: Sequence[Capture] = ()) -> str:
    """The standalone ``ModelNew`` source of the captures; :class:`ConversionError` says why not.

    ``generic`` serves every size; each of ``by_sizes`` (captured with static sizes) serves its
    inputs' sizes alone, ahead of the generic one, as torch.compile's specialized code would. A
    generic capture in which inductor fixed a size it was meant to keep dynamic serves nothing else."""
    if generic is not None and generic.fixed_sizes:
        if not by_sizes:
            dims = ", ".join(generic.fixed_sizes)
            raise ConversionError(f"inductor fixed sizes that differ between variants ({dims}): the spec's "
                                  "model holds them as Python numbers; capture each variant's sizes")
        generic = None
    captures = [*by_sizes, generic] if generic is not None else list(by_sizes)
    if not captures:
        raise ConversionError("no capture to convert")
    parts = [_part(c, f"_s{i}" if len(captures) > 1 else "") for i, c in enumerate(captures)]
    first = captures[0]
    v = first.versions
    options = ", ".join(f"{k}={v!r}" for k, v in first.options.items())
    out = [HEADER.format(spec=first.spec_name, torch=v.get("torch", "?"), triton=v.get("triton", "?"),
                         gpu=v.get("gpu", "?"), options=f" with inductor's {options}" if options else "")]
    helpers = {name: src for part in parts for name, src in part.helpers.items()}
    out += [f"\n{h}\n" for h in helpers.values()]
    if any("make_tensor_descriptor" in ast.unparse(k) for part in parts for k in part.kernels.values()):
        out.append(_SCRATCH)
    # the timing runs the first part alone: the others' kernels and launches are kept out of the operators' way
    out += [f"\n{_kernel_text(k, keep=i > 0)}\n" for i, part in enumerate(parts) for k in part.kernels.values()]
    init = "\n        ".join(_init(first))
    if len(parts) == 1 and generic is not None:
        methods = "    def forward(self, *inputs):\n        " + "\n        ".join(parts[0].host) + "\n"
    else:
        branches = [f"        if sizes == {_sizes(c)}:\n            return self._sizes_{i}(*inputs)"
                    for i, c in enumerate(by_sizes)]
        fallback = "        return self._generic(*inputs)" if generic is not None else \
            '        raise ValueError(f"no kernels were compiled for input sizes {sizes}")'
        methods = ("    def forward(self, *inputs):\n"
                   "        sizes = tuple(tuple(x.shape) for x in inputs if isinstance(x, torch.Tensor))\n"
                   + "\n".join(branches) + "\n" + fallback + "\n")
        names = [f"_sizes_{i}" for i in range(len(by_sizes))] + (["_generic"] if generic is not None else [])
        for i, (name, part) in enumerate(zip(names, parts, strict=True)):
            methods += (f"\n    def {name}(self, *inputs):{_KEEP if i > 0 else ''}\n        "
                        + "\n        ".join(part.host) + "\n")
    out.append(f'''

class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        {init}

{methods}''')
    return "".join(out)


__all__ = ["ConversionError", "state_init_lines", "to_candidate"]
