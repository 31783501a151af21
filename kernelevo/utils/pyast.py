"""Small helpers for reading Python source as an AST (never running it)."""

from __future__ import annotations

import ast
import re

# a GEMM's tile or tile grouping, as kernels declare them: BLOCK_M, BLOCK_SIZE_K, TILE_N, GROUP_M
KERNEL_TILE = re.compile(r"^(?:BLOCK|TILE|BLK)_?(?:SIZE_?)?[MNK]$|^GROUP_(?:SIZE_)?M$")


def dotted_name(node: ast.AST) -> str | None:
    """'torch.nn.functional.gelu' for an attribute chain that starts at a name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def launched_kernel(node: ast.AST) -> str | None:
    """The kernel a launch ``kernel[grid](...)`` (or ``module.kernel[grid](...)``) names; None for any other node."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Subscript):
        return (dotted_name(node.func.value) or "").split(".")[-1] or None
    return None


def decorator_names(fn: ast.FunctionDef) -> list[str]:
    """The last name of each decorator: ``jit`` for ``@triton.jit`` and ``@triton.jit(...)``."""
    return [(dotted_name(d.func if isinstance(d, ast.Call) else d) or "").split(".")[-1] for d in fn.decorator_list]


def is_constexpr(arg: ast.arg) -> bool:
    """Whether a kernel parameter is annotated ``tl.constexpr`` (however ``triton.language`` is named)."""
    return arg.annotation is not None and "constexpr" in ast.unparse(arg.annotation)


def program_id_axis(call: ast.Call) -> object:
    """The axis a ``tl.program_id(...)`` call names, positionally or as ``axis=``; None when not a literal."""
    if call.args:
        return call.args[0].value if isinstance(call.args[0], ast.Constant) else None
    axis = next((kw.value for kw in call.keywords if kw.arg == "axis"), None)
    return axis.value if isinstance(axis, ast.Constant) else None


def loops_over_programs(kernel: ast.FunctionDef) -> bool:
    """Whether a loop of the kernel's body starts at the program id and strides by the program count
    (``tl.num_programs`` or a constant of the kernel's that is not a tile, as inductor's ``NUM_SMS``):
    a persistent kernel, where every program takes work until none is left, whatever its grid. A
    loop over K by ``BLOCK_K`` is not one."""
    constants = {s.target.id for s in kernel.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)}
    from_pid = {t.id for s in kernel.body if isinstance(s, ast.Assign) and has_program_id(s.value)
                for t in s.targets if isinstance(t, ast.Name)}
    for loop in kernel.body:
        if isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call) and len(loop.iter.args) == 3:
            start, _, step = loop.iter.args
            starts_at_pid = has_program_id(start) or (isinstance(start, ast.Name) and start.id in from_pid)
            by_programs = (isinstance(step, ast.Name) and step.id in constants and not KERNEL_TILE.match(step.id)) \
                or (isinstance(step, ast.Call) and ast.unparse(step.func).endswith("num_programs"))
            if starts_at_pid and by_programs:
                return True
    return False


def has_program_id(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Call) and ast.unparse(n.func).endswith("program_id") for n in ast.walk(node))


def copy_root(copies: dict[str, str], name: str) -> str:
    """What ``name`` is a copy of, through copies of copies (``buf2 = buf1``, ``buf1 = buf0`` give ``buf0``);
    ``copies`` maps each copy to the name it was assigned from. A cycle stops where it closes."""
    seen = {name}
    while name in copies and copies[name] not in seen:
        name = copies[name]
        seen.add(name)
    return name

