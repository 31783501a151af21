"""Row epilogue: a persistent row reduction after the project's own GEMM runs on the GEMM's tile in registers.

A Linear followed by a softmax, a norm or a logsumexp over each row compiles to a GEMM that
writes its (M, N) output and an inductor persistent reduction (``triton_per_...``) that reads
it back, one row per x index and the whole row in one block (``R0_BLOCK >= N``). Where a row
fits one tile, one program can own whole rows of the GEMM's output: this move writes one kernel
that computes a ``BLOCK_M x BLOCK_N`` tile with ``BLOCK_N = next_power_of_2(N)`` (a grid over M
alone), then runs the reduction's body on that tile, its loads of the GEMM's output replaced by
the accumulator. The output never goes through memory (2 M N elements of traffic and a launch
fewer), at the price of fewer programs: M / BLOCK_M.

It applies only where the fused kernel computes the same numbers:

- the first launch is the GEMM the library-GEMM move wrote (:mod:`kernelevo.variation.moves.library_gemm`),
  its body untouched (nothing fused into it yet) and launched only here, writing a buffer the host
  allocated as a row-major 2-D ``(M, N)`` tensor (``torch.empty_strided((M, N), (N, 1))``);
- the second is a persistent reduction: a body without loops or branches, its only constexpr
  ``XBLOCK``, ``R0_BLOCK`` (``RBLOCK`` in older inductor) declared ``next_power_of_2(N)`` and at
  most :data:`LIMIT`, rows masked (``xmask = xindex < xnumel``, so any ``BLOCK_M`` the template
  operator picks is safe) and every load or store whose address depends on the row masked by it;
  it reads the buffer only as ``ptr + (r0_1 + N * x0)`` and never writes it;
- nothing but ``del``, aliases, sizes and fresh allocations runs between the launches, and nothing
  reads the buffer after the reduction: the fused kernel no longer writes it (the host still
  allocates it; the kernel takes its element type from it).

The reduction reads the accumulator rounded to the buffer's element type, as it read it from memory,
and where its own mask is off it gets its own ``other``. ``BLOCK_N`` is computed in the launch from
the GEMM's N, not written as a literal, so the template operator tunes ``BLOCK_M``, ``BLOCK_K``, warps
and stages but can never narrow a row.
"""

from __future__ import annotations

import ast
import copy
import functools
import itertools
import textwrap
from dataclasses import dataclass

from kernelevo.utils.kept import is_kept
from kernelevo.utils.pyast import copy_root, decorator_names, dotted_name, is_constexpr
from kernelevo.variation.moves.fuse_epilogue import Launch, address_root, aliases, launch_counts, launches
from kernelevo.variation.moves.library_gemm import PREFIX, own_kernel_untouched
from kernelevo.variation.source.source_text import Move, SourceText

# The widest row (elements) the fused kernel takes. A program holds BLOCK_M x next_power_of_2(N) fp32
# accumulators and the reduction's temporaries of that shape: at 1024 and the smallest tile a tl.dot takes
# (BLOCK_M = 16) that is 64 registers a thread on 8 warps, the GEMM's own 128 x 128 tile's share; at 2048 it
# is 128 before any temporary, and the B tile alone (16 x 2048 fp32, 128 KiB a stage) leaves one stage.
LIMIT = 1024
_ALLOCATIONS = ("torch.empty_strided", "torch.empty")
# the names the fused kernel's GEMM part uses; a reduction's name among them is renamed
_GEMM_NAMES = {"rm", "rn", "rk", "a_tile", "b_tile", "acc", "k", "a", "b", "bias", "HAS_BIAS", "PRECISION",
               "BLOCK_M", "BLOCK_N", "BLOCK_K"}
# the GEMM's (part_ptr and count_ptr, its split-K buffers, go unused: its rows are whole in one program)
_PARAMS = ("a_ptr, b_ptr, c_ptr, bias_ptr, part_ptr, count_ptr, M, N, K, alpha, beta, stride_ab, stride_am,\n"
           "        stride_ak, stride_bb, stride_bk, stride_bn, stride_cb, stride_cm, stride_cn, stride_xb,\n"
           "        stride_xm, stride_xn")
_KERNEL = '''@triton.jit
def {name}({params},
        {extra}
        HAS_BIAS: tl.constexpr, PRECISION: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
        BLOCK_K: tl.constexpr):
    """c = alpha * a @ b (+ beta * bias) for BLOCK_M whole rows a program (BLOCK_N >= N), reduced in registers
    as {reduction} did: c is never written, only its element type is read."""
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)  # the reduction's xindex
    rn = tl.arange(0, BLOCK_N)  # the reduction's r0_index: one program, whole rows
    rk = tl.arange(0, BLOCK_K)
    a_tile = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_tile = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_tile, mask=(rm[:, None] < M) & (rk[None, :] < K - k * BLOCK_K), other=0.0)
        b = tl.load(b_tile, mask=(rk[:, None] < K - k * BLOCK_K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision=PRECISION)
        a_tile += BLOCK_K * stride_ak
        b_tile += BLOCK_K * stride_bk
    acc = acc * alpha
    if HAS_BIAS:
        bias = tl.load(bias_ptr + rm[:, None] * stride_xm + rn[None, :] * stride_xn,
                       mask=(rm[:, None] < M) & (rn[None, :] < N), other=0.0)
        acc += beta * bias.to(tl.float32)
{body}
'''
_LAUNCH = ("{indent}{name}[lambda meta: (triton.cdiv({a}.shape[-2], meta['BLOCK_M']),)]({args}, {keywords}, "
           "BLOCK_M={block_m}, BLOCK_N=triton.next_power_of_2({b}.shape[-1]), BLOCK_K={block_k}, "
           "num_warps={warps}, num_stages=2)\n")


def _settings(block_n: int) -> dict[str, int]:
    """A first launch for rows of ``block_n``: about 64 fp32 accumulators a thread, and two stages of the
    B tile (BLOCK_K x block_n) within an H100's shared memory in fp32."""
    if block_n <= 128:
        return {"block_m": 64, "block_k": 32, "warps": 4}
    if block_n <= 256:
        return {"block_m": 32, "block_k": 32, "warps": 4}
    return {"block_m": 16, "block_k": 16, "warps": 4 if block_n <= 512 else 8}


def _allocation(body: list[ast.stmt], name: str) -> tuple[str, int] | None:
    """(rows as text, row width) of the last ``name = torch.empty_strided((M, N), (N, 1), ...)`` (or
    ``torch.empty((M, N), ...)``) in ``body``, N a literal; None for anything else."""
    stmt = next((s for s in reversed(body) if isinstance(s, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == name for t in s.targets)), None)
    call = stmt.value if stmt is not None else None
    if not isinstance(call, ast.Call) or dotted_name(call.func) not in _ALLOCATIONS or not call.args:
        return None
    shape = call.args[0]
    if not isinstance(shape, ast.Tuple) or len(shape.elts) != 2 or not isinstance(shape.elts[1], ast.Constant) \
            or not isinstance(shape.elts[1].value, int):
        return None
    width = shape.elts[1].value
    if dotted_name(call.func) == "torch.empty_strided" and \
            (len(call.args) < 2 or ast.unparse(call.args[1]) != f"({width}, 1)"):
        return None
    return ast.unparse(shape.elts[0]), width


class _Rewrite(ast.NodeTransformer):
    """Renames names and replaces the buffer's loads (known by position) with the accumulator."""

    def __init__(self, names: dict[str, str], loads: set[tuple[int, int, int | None, int | None]]) -> None:
        self.names, self.loads = names, loads

    def visit_Name(self, node: ast.Name) -> ast.AST:
        node.id = self.names.get(node.id, node.id)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        if _position(node) not in self.loads:
            return self.generic_visit(node)
        mask = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "mask"), None)
        other = node.args[2] if len(node.args) > 2 else next((k.value for k in node.keywords if k.arg == "other"),
                                                              None)
        value = "acc.to(c_ptr.dtype.element_ty)"  # rounded as the GEMM stored it
        if mask is None or (isinstance(mask, ast.Constant) and mask.value is None):
            return ast.parse(value, mode="eval").body
        otherwise = ast.unparse(self.visit(other)) if other is not None else "0.0"  # any value: never read
        where = f"tl.where({ast.unparse(self.visit(mask))}, {value}, {otherwise})"
        return ast.parse(where, mode="eval").body


def _position(node: ast.expr) -> tuple[int, int, int | None, int | None]:
    """Where a node starts and ends: ``tl.load(p).to(t)`` starts where its load does."""
    return node.lineno, node.col_offset, node.end_lineno, node.end_col_offset


def _mask(call: ast.Call) -> ast.expr | None:
    """The mask of a ``tl.load`` (second argument) or ``tl.store`` (third), positional or by keyword."""
    at = 2 if dotted_name(call.func) == "tl.store" else 1
    return call.args[at] if len(call.args) > at else next((k.value for k in call.keywords if k.arg == "mask"), None)


def _names(node: ast.AST | None) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} if node is not None else set()


@dataclass(frozen=True)
class _Reduction:
    """A persistent row reduction rewritten to run on the fused kernel's tile."""

    params: list[str]  # its parameters but the buffer's pointer and XBLOCK, under their names in the fused kernel
    args: list[ast.expr]  # what its launch passes for them
    body: str  # its statements, indented, on the accumulator


def _reduction(kernel: ast.FunctionDef, launch: Launch, at: int, rows: str, width: int) -> _Reduction | None:
    """Persistent reduction ``kernel`` (launched as ``launch``, the buffer its ``at``-th argument) on the fused
    kernel's tile; None where the module docstring's conditions do not hold."""
    params = kernel.args.args
    plain = [p.arg for p in params if not is_constexpr(p)]
    call = launch.stmt.value
    assert isinstance(call, ast.Call)
    if [p.arg for p in params if is_constexpr(p)] != ["XBLOCK"] or len(launch.args) != len(plain) \
            or any(isinstance(a, ast.Starred) for a in launch.args) or at >= len(plain) \
            or {k.arg for k in call.keywords} - {"XBLOCK", "num_warps", "num_stages"} \
            or kernel.args.vararg or kernel.args.kwonlyargs \
            or not all(isinstance(s, ast.Assign | ast.AnnAssign | ast.Expr) for s in kernel.body):
        return None
    values: dict[str, ast.expr] = {}  # each name's one value: assigned in the body, else passed by the launch
    for stmt in kernel.body:
        if isinstance(stmt, ast.Assign | ast.AnnAssign):
            target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else \
                stmt.target if isinstance(stmt, ast.AnnAssign) else None
            if not isinstance(target, ast.Name) or target.id in values or stmt.value is None:
                return None  # each name assigned once (inductor's sizes of a parameter first)
            values[target.id] = stmt.value
    copies = {k: v.id for k, v in values.items() if isinstance(v, ast.Name)}  # in the body: r0_1 = r0_index
    values |= {p: a for p, a in zip(plain, launch.args, strict=True) if p not in values}

    def root(name: str) -> str:
        return copy_root(copies, name)

    def text(name: str) -> str:
        return ast.unparse(values[name]) if name in values else ""

    def named(value: str) -> str:  # the name assigned exactly ``value``
        return next((k for k, v in values.items() if ast.unparse(v) == value), "")

    block = next((n for n in ("R0_BLOCK", "RBLOCK") if isinstance(values.get(n), ast.Constant)), "")
    numel = "r0_numel" if "r0_numel" in values else "rnumel"
    xindex = named(f"{named('tl.program_id(0) * XBLOCK') or '?'} + tl.arange(0, XBLOCK)[:, None]")
    rindex, xmask = named(f"tl.arange(0, {block})[None, :]"), named(f"{xindex} < xnumel")
    program_ids = [n for n in ast.walk(kernel) if isinstance(n, ast.Call) and dotted_name(n.func) == "tl.program_id"]
    if not (block and xindex and rindex and xmask) or width > LIMIT or len(program_ids) != 1 \
            or text(block) != str(1 << max(width - 1, 0).bit_length()) \
            or text(root(numel)) != str(width) or text(root("xnumel")) != rows:
        return None
    pointer = plain[at]
    rows_of = {xindex}  # names whose value depends on the row: a load or store they address needs xmask
    for name, value in values.items():
        if name not in plain and _names(value) & rows_of:
            rows_of.add(name)
    addresses = {f"{pointer} + ({r} + {width} * {x})" for r, x in itertools.product(
        [k for k in values if root(k) == rindex], [k for k in values if root(k) == xindex])}
    loads: set[tuple[int, int, int | None, int | None]] = set()
    for access in (n for n in ast.walk(kernel) if isinstance(n, ast.Call) and n.args
                   and dotted_name(n.func) in ("tl.load", "tl.store")):
        if address_root(access) == pointer:
            if dotted_name(access.func) != "tl.load" or ast.unparse(access.args[0]) not in addresses:
                return None  # read at another index, or written
            loads.add(_position(access))
        elif _names(access.args[0]) & rows_of and xmask not in _names(_mask(access)):
            return None  # a row the tile holds past M would be read or written
    if sum(isinstance(n, ast.Name) and n.id == pointer for n in ast.walk(kernel)) != len(loads):
        return None  # the buffer's pointer is used otherwise than loaded
    ours = _GEMM_NAMES | {p.strip() for p in _PARAMS.split(",")}  # the GEMM's parameters too
    fresh = {"XBLOCK": "BLOCK_M", block: "BLOCK_N"}
    for name in values:
        if name in ours and name not in fresh:
            fresh[name] = next(f"{name}_r{i}" for i in itertools.count() if f"{name}_r{i}" not in values)
    rewrite = _Rewrite(fresh, loads)
    kept = [copy.deepcopy(s) for s in kernel.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
            and not (isinstance(s, ast.AnnAssign) and ast.unparse(s.target) == block)]  # nor the docstring
    body = "\n".join(textwrap.indent(ast.unparse(rewrite.visit(s)), "    ") for s in kept)
    others = [i for i, p in enumerate(plain) if p != pointer]
    return _Reduction([fresh.get(plain[i], plain[i]) for i in others], [launch.args[i] for i in others], body)


def _between(stmts: list[ast.stmt]) -> dict[str, str] | None:
    """Aliases made between the two launches, where only ``del``, aliases, sizes and fresh allocations (the
    reduction's outputs) run there; else None."""
    fresh = [s for s in stmts if isinstance(s, ast.Assign) and isinstance(s.value, ast.Call)
             and dotted_name(s.value.func) in (*_ALLOCATIONS, "torch.empty_like")]
    return aliases([s for s in stmts if s not in fresh])


def row_epilogues(source: str, tree: ast.Module, text: SourceText) -> list[Move]:
    """One move per launch of the project's own GEMM followed by a persistent reduction of its rows that can
    run in its epilogue."""
    kernels = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and "jit" in decorator_names(n)}
    counts = launch_counts(tree, kernels)
    found = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef) or fn.name in kernels or is_kept(source, fn):
            continue
        for (i, first), (j, second) in itertools.pairwise(launches(fn, kernels)):
            if first.kernel.startswith(PREFIX) and counts[first.kernel] == 1 \
                    and own_kernel_untouched(tree, first.kernel) and not is_kept(source, kernels[second.kernel]):
                move = _row_move(text, fn.body, i, j, (first, second), kernels, counts[second.kernel])
                if move is not None:
                    found.append(move)
    return found


def _row_move(text: SourceText, body: list[ast.stmt], i: int, j: int, pair: tuple[Launch, Launch],
              kernels: dict[str, ast.FunctionDef], reduction_launches: int) -> Move | None:
    (gemm, second), call = pair, pair[0].stmt.value
    assert isinstance(call, ast.Call)
    names = _between(body[i + 1:j])
    keywords = {k.arg: ast.unparse(k.value) for k in call.keywords}
    out = gemm.args[2] if len(gemm.args) == 14 else None
    if names is None or not isinstance(out, ast.Name) or not {"HAS_BIAS", "PRECISION"} <= set(keywords):
        return None
    buffer = {out.id} | {k for k in names if copy_root(names, k) == out.id}
    at = [k for k, arg in enumerate(second.args) if isinstance(arg, ast.Name) and copy_root(names, arg.id) == out.id]
    shape = _allocation(body[:i], out.id)
    later = set().union(*(_names(s) for s in body[j + 1:] if not isinstance(s, ast.Delete)))
    changed = set().union(*(_names(t) for s in body[i + 1:j] for t in getattr(s, "targets", [])))
    assigned = set().union(*(_names(t) for s in body[i + 1:j] if isinstance(s, ast.Assign) for t in s.targets))
    if len(at) != 1 or shape is None or later & buffer or (changed - buffer) & _names(call) or out.id in assigned:
        return None  # the buffer is read after or replaced, or an operand of the GEMM changes between the launches
    reduction = _reduction(kernels[second.kernel], second, at[0], *shape)
    if reduction is None:
        return None
    passed = second.args[at[0]]
    assert isinstance(passed, ast.Name)
    rename = _Rewrite(dict.fromkeys(buffer, passed.id), set())  # the buffer under the name live at the reduction
    args = [ast.unparse(rename.visit(copy.deepcopy(a))) for a in gemm.args] + [ast.unparse(a) for a in reduction.args]
    a, b = (ast.unparse(x) for x in gemm.args[:2])
    launch = _LAUNCH.format(indent=" " * second.stmt.col_offset, name=gemm.kernel, a=a, b=b, args=", ".join(args),
                            keywords=f"HAS_BIAS={keywords['HAS_BIAS']}, PRECISION={keywords['PRECISION']}",
                            **_settings(1 << max(shape[1] - 1, 0).bit_length()))
    kernel = _KERNEL.format(name=gemm.kernel, params=_PARAMS, extra=", ".join(reduction.params) + ",",
                            reduction=second.kernel, body=reduction.body)
    label = f"{second.kernel}: its rows reduced in {gemm.kernel}'s epilogue"
    edits = [_statement(text, gemm.stmt, f"{' ' * gemm.stmt.col_offset}# {gemm.kernel}: launched below, "
                                         f"{second.kernel}'s row reduction in its epilogue\n"),
             _statement(text, second.stmt, launch), _definition(text, kernels[gemm.kernel], kernel)]
    if reduction_launches == 1:  # launched nowhere else: its definition goes
        edits.append(_definition(text, kernels[second.kernel], ""))
    return Move(label, functools.partial(text.splice, edits))



def _statement(text: SourceText, stmt: ast.stmt, new: str) -> tuple[int, int, str]:
    return text.starts[stmt.lineno - 1], text.starts[stmt.end_lineno or stmt.lineno], new


def _definition(text: SourceText, kernel: ast.FunctionDef, new: str) -> tuple[int, int, str]:
    """The edit that replaces a kernel's definition (from its decorator; removed: the blank lines after it too)."""
    start = min([d.lineno for d in kernel.decorator_list] + [kernel.lineno])
    end = kernel.end_lineno or kernel.lineno
    while not new and end < len(text.starts) - 1 and not text.source[text.starts[end]:text.starts[end + 1]].strip():
        end += 1
    return text.starts[start - 1], text.starts[end], new


__all__ = ["LIMIT", "row_epilogues"]
