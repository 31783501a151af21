"""Inductor's host code (its module's ``call``) as the lines of a standalone ``forward``.

Inductor's ``call(args)`` unpacks its arguments, allocates buffers with private helpers,
launches its Triton kernels through autotuning launchers, hands GEMMs, convolutions and
attention to libraries (``extern_kernels.mm``, ``torch.ops.aten._scaled_dot_product_*``)
and returns views of its buffers. Each statement becomes what a candidate may write:

- the arguments are read from the inputs, the parameters and their sizes;
- ``empty_strided_cuda`` / ``empty_strided`` are ``torch.empty_strided`` on the inputs' device,
  ``reinterpret_tensor`` is ``torch.as_strided``, methods that view or copy a buffer stay;
- a launch ``K.run(args..., stream=s)`` is ``K[grid](args..., XBLOCK=..., num_warps=...,
  num_stages=...)`` with the configuration inductor's autotuner chose, its grid written with
  ``triton.cdiv`` (and any helper assignments the grid reads inlined);
- ``extern_kernels.mm/addmm/bmm/baddbmm`` are the same torch functions, ``extern_kernels.convolution``
  is ``torch.convolution`` and an aten attention is ``F.scaled_dot_product_attention``: the
  library calls the evaluator's library policy allows, for the reference's own work;
- size, stride and alignment asserts, device guards and stream lookups are dropped.

Anything else (an aten fallback that computes, a CPU buffer's host loop) cannot run in a
candidate: :class:`ConversionError` names it.
"""

from __future__ import annotations

import ast
import re

from kernelevo.utils.pyast import dotted_name
from kernelevo.variation.seeding.inductor_capture import Capture


class ConversionError(Exception):
    """Why inductor's module cannot become a standalone candidate."""


DROPPED_CALLS = frozenset({"assert_size_stride", "assert_alignment", "torch.cuda.set_device", "args.clear",
                           "torch._check", "torch._check_is_size"})
_CDIV = re.compile(r"-\(\((.+?)\) // -\((\d+|\w+)\)\)")
# library calls inductor's host code makes, as the torch functions a candidate may call
_EXTERN_SAME = {f"extern_kernels.{n}": f"torch.{n}" for n in ("mm", "addmm", "bmm", "baddbmm")}
_ATTENTION = {  # aten attention -> the position of (dropout_p, is_causal) among its arguments
    "torch.ops.aten._scaled_dot_product_flash_attention.default": (3, 4),
    "torch.ops.aten._scaled_dot_product_efficient_attention.default": (5, 6),
    "torch.ops.aten._scaled_dot_product_cudnn_attention.default": (5, 6),
}
_ATTENTION_BIAS_AT = {"torch.ops.aten._scaled_dot_product_efficient_attention.default": 3,
                      "torch.ops.aten._scaled_dot_product_cudnn_attention.default": 3}
# methods a buffer may be called with: views, copies, fills
_BUFFER_METHODS = frozenset({"view", "reshape", "as_strided", "permute", "transpose", "t", "unsqueeze", "squeeze",
                             "expand", "contiguous", "copy_", "fill_", "zero_", "clone", "narrow", "select",
                             "unflatten", "flatten", "resize_", "size", "stride", "dim", "numel"})
_ALLOWED_FUNCS = frozenset({"torch.empty_strided", "torch.as_strided", "triton.cdiv", "max", "min",
                            *_EXTERN_SAME.values(), "torch.convolution", "F.scaled_dot_product_attention"})


def dotted(node: ast.AST) -> str:
    return dotted_name(node) or ""


def _expr(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


class _Host(ast.NodeTransformer):
    """Inductor's allocators, views and library calls as public torch calls."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = dotted(node.func)
        args = [ast.unparse(a) for a in node.args]
        kwargs = {k.arg: ast.unparse(k.value) for k in node.keywords if k.arg is not None}
        if func == "empty_strided_cuda" or func == "empty_strided_cpu":
            if len(args) != 3:
                raise ConversionError(f"{func} with other than (size, stride, dtype)")
            device = "device" if func.endswith("cuda") else "'cpu'"
            return _expr(f"torch.empty_strided({args[0]}, {args[1]}, dtype={args[2]}, device={device})")
        if func == "empty_strided":  # empty_strided(size, stride, device=..., dtype=...)
            return _expr(f"torch.empty_strided({args[0]}, {args[1]}, dtype={kwargs.get('dtype', 'None')}, "
                         "device=device)")
        if func == "reinterpret_tensor":
            return _expr(f"torch.as_strided({', '.join(args)})")
        if func in _EXTERN_SAME:
            node.func = _expr(_EXTERN_SAME[func])
            return node
        if func == "extern_kernels.convolution":
            return _convolution(args, kwargs)
        if func in _ATTENTION:
            return _attention(func, args, kwargs)
        if _buffer_method(node):
            return node
        if func not in _ALLOWED_FUNCS:
            raise ConversionError(f"inductor's host code calls {func or ast.unparse(node.func)}(), which a "
                                  "candidate may not")
        return node


_MODULES = frozenset({"torch", "triton", "tl", "F", "extern_kernels", "aten", "math"})


def _buffer_method(node: ast.Call) -> bool:
    """``buf0.view(...)``, ``arg1_1.copy_(buf2)``: a view, copy or fill of a buffer (not of a module)."""
    if not (isinstance(node.func, ast.Attribute) and node.func.attr in _BUFFER_METHODS):
        return False
    owner = node.func.value
    return not (isinstance(owner, ast.Name) and owner.id in _MODULES) and not isinstance(owner, ast.Attribute)


def _convolution(args: list[str], kwargs: dict[str, str]) -> ast.expr:
    """``extern_kernels.convolution(x, w, stride=, padding=, ...)`` -> ``torch.convolution`` (positional)."""
    names = ("stride", "padding", "dilation", "transposed", "output_padding", "groups")
    given = dict(zip(("input", "weight", "bias", *names), args, strict=False)) | kwargs
    missing = [n for n in ("input", "weight", *names) if n not in given]
    if missing:
        raise ConversionError(f"extern_kernels.convolution without {', '.join(missing)}")
    ordered = [given["input"], given["weight"], given.get("bias", "None"), *(given[n] for n in names)]
    return _expr(f"torch.convolution({', '.join(ordered)})")


def _attention(func: str, args: list[str], kwargs: dict[str, str]) -> ast.expr:
    """An aten attention -> a one-tuple of ``F.scaled_dot_product_attention`` (inductor reads its ``[0]``)."""
    if len(args) < 3:
        raise ConversionError(f"{func} with fewer than three tensors")
    dropout_at, causal_at = _ATTENTION[func]
    dropout = args[dropout_at] if len(args) > dropout_at else kwargs.get("dropout_p", "0.0")
    causal = args[causal_at] if len(args) > causal_at else kwargs.get("is_causal", "False")
    bias_at = _ATTENTION_BIAS_AT.get(func)
    mask = args[bias_at] if bias_at is not None and len(args) > bias_at else kwargs.get("attn_bias", "None")
    if dropout not in ("0.0", "0"):
        raise ConversionError(f"{func} with dropout {dropout}: not deterministic")
    scale = kwargs.get("scale", "None")
    call = (f"F.scaled_dot_product_attention({args[0]}, {args[1]}, {args[2]}, attn_mask={mask}, is_causal={causal}, "
            f"scale={scale})")
    return _expr(f"({call},)")


def call_body(tree: ast.Module) -> list[ast.stmt]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "call":
            return node.body
    raise ConversionError("inductor's module has no call()")


def _flatten(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of ``call``, device guards unwrapped."""
    out: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, ast.With) and all("DeviceGuard" in dotted(i.context_expr.func)
                                              for i in stmt.items if isinstance(i.context_expr, ast.Call)):
            out += _flatten(stmt.body)
        else:
            out.append(stmt)
    return out


def _arg_source(capture: Capture, i: int) -> str:
    arg = capture.args[i]
    if arg.kind == "input":
        return f"inputs[{arg.index}]"
    if arg.kind == "state":
        return state_path(arg.name or "")
    base = f"inputs[{arg.index}]" if arg.name is None else state_path(arg.name)
    return f"{base}.shape[{arg.dim}]"


def state_path(name: str) -> str:
    """The expression of the parameter or buffer ``name`` ("layer1.0.conv1.weight") in ``ModelNew``: the
    reference's top-level modules are attributes, the modules under them keys of ``nn.ModuleDict``s
    (``self.layer1["0"]["conv1"].weight``), so that any container's names (``nn.Sequential``'s "0") work."""
    *modules, leaf = name.split(".")
    path = module_path(modules)
    return f"{path}.{leaf}" if leaf.isidentifier() else f"getattr({path}, {leaf!r})"


def module_path(modules: list[str]) -> str:
    """``["layer1", "0"]`` -> ``self.layer1['0']``: a module of ``ModelNew`` (see :func:`state_path`)."""
    return "self" + "".join(f".{part}" if i == 0 else f"[{part!r}]" for i, part in enumerate(modules))


def _grid(launch_names: list[str], values: list[ast.expr], grid: list[str], prefix: list[str], kernel: str) -> str:
    """The launch grid as an expression in the call's own arguments; helper assignments inlined."""
    bound: dict[str, ast.expr] = dict(zip(launch_names, values, strict=False))

    class Bind(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            return bound.get(node.id, node)

    def bind(text: str) -> ast.expr:
        tree = ast.parse(_CDIV.sub(r"triton.cdiv(\1, \2)", text), mode="eval")
        unknown = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - set(bound) - {"triton", "max", "min"}
        if unknown:
            raise ConversionError(f"kernel {kernel}: its grid reads {', '.join(sorted(unknown))}, which the launch "
                                  "does not pass")
        return Bind().visit(tree).body

    for line in prefix:  # name = expr, in order; later lines and the grid read earlier names
        target, _, value = line.partition("=")
        if not target.strip().isidentifier() or not value.strip():
            raise ConversionError(f"kernel {kernel}: its grid's helper line {line!r} is no assignment")
        bound[target.strip()] = bind(value.strip())
    return f"({', '.join(ast.unparse(bind(expr)) for expr in grid)})"


def _launch(stmt: ast.Expr, capture: Capture, kernels: dict[str, ast.FunctionDef]) -> str:
    call = stmt.value
    assert isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
    name = dotted(call.func.value)
    launch = capture.kernels.get(name)
    if launch is None or name not in kernels:
        raise ConversionError(f"the host launches {name}, which the capture does not describe")
    # the call site passes every kernel parameter autotuning did not set (a numel fixed at 1 too), then the grid's
    taken = [a.arg for a in kernels[name].args.args if a.arg not in launch.config]
    values = [_Host().visit(v) for v in call.args]
    if len(values) != len(taken) + len(launch.grid_args):
        raise ConversionError(f"{name} is launched with {len(values)} arguments; its launcher takes "
                              f"{len(taken) + len(launch.grid_args)}")
    grid = _grid(taken + launch.grid_args, values, launch.grid, launch.grid_prefix, name)
    args = [ast.unparse(v) for v in values[:len(taken)]]
    args += [f"{k}={v}" for k, v in launch.config.items()]
    args += [f"num_warps={launch.num_warps}", f"num_stages={launch.num_stages}"]
    return f"{name}[{grid}]({', '.join(args)})"


def host_lines(capture: Capture, kernels: dict[str, ast.FunctionDef]) -> list[str]:
    """The lines of ``forward(self, *inputs)`` that do what inductor's ``call`` does."""
    lines: list[str] = []
    for stmt in _flatten(call_body(ast.parse(capture.code))):
        if isinstance(stmt, ast.Assign) and dotted(stmt.value) == "args":  # arg0_1, arg1_1 = args
            targets = stmt.targets[0].elts if isinstance(stmt.targets[0], ast.Tuple) else [stmt.targets[0]]
            if len(targets) != len(capture.args):
                raise ConversionError(f"call() takes {len(targets)} arguments; the capture placed {len(capture.args)}")
            lines += [f"{dotted(t)} = {_arg_source(capture, i)}" for i, t in enumerate(targets)]
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            func = dotted(stmt.value.func)
            if func in DROPPED_CALLS:
                continue
            if isinstance(stmt.value.func, ast.Attribute) and stmt.value.func.attr == "run" \
                    and dotted(stmt.value.func.value) in kernels:
                lines.append(_launch(stmt, capture, kernels))
                continue
            lines.append(ast.unparse(_Host().visit(stmt)))
            continue
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and \
                dotted(stmt.value.func) == "get_raw_stream":
            continue  # the kernels launch on torch's current stream
        if isinstance(stmt, ast.Return) and stmt.value is not None:
            value = _Host().visit(stmt.value)
            values = value.elts if isinstance(value, ast.Tuple) else [value]
            if len(values) != capture.outputs:
                raise ConversionError(f"call() returns {len(values)} tensors; the reference {capture.outputs}")
            if capture.output_tuple:
                lines.append(f"return ({', '.join(ast.unparse(v) for v in values)},)")
            else:
                lines.append(f"return {ast.unparse(values[0])}")
            continue
        if isinstance(stmt, ast.Assign | ast.Delete):
            lines.append(ast.unparse(_Host().visit(stmt)))
            continue
        raise ConversionError(f"inductor's host code has a statement kernelevo cannot carry: {ast.unparse(stmt)[:80]}")
    return lines


__all__ = ["DROPPED_CALLS", "ConversionError", "call_body", "dotted", "host_lines", "module_path", "state_path"]
