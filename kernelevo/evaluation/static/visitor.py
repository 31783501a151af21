"""The static checks' AST visitor: one walk over a candidate's source that notes every finding
(:func:`~kernelevo.evaluation.static.check.check_source` runs it, then the CUDA text's checks)."""

from __future__ import annotations

import ast

from kernelevo.evaluation.static.cuda import check_link_flags
from kernelevo.evaluation.static.finding import Finding
from kernelevo.evaluation.static.rules import (
    ALLOWED_IMPORTS,
    ALLOWED_TORCH_FUNCS,
    COMPUTE_METHODS,
    CUPY_ALLOWED,
    DYNAMIC_BUILTINS,
    FILE_BUILTINS,
    FORBIDDEN_SUBMODULES,
    IMPORT_KINDS,
    LIBRARY_MODULES,
    LIBRARY_NAMES,
    SAFE_DUNDERS,
    STREAM_NAMES,
    TORCH_NAMESPACES,
)
from kernelevo.evaluation.static.settings import settings_assignment, settings_call
from kernelevo.records.result import LIBRARY_FAMILIES, ErrorKind
from kernelevo.utils.pyast import dotted_name


def _is_jit_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    name = dotted_name(target) or ""
    return name.split(".")[-1] in {"jit", "autotune", "heuristics"} and (
        name.startswith("triton") or name in {"jit", "autotune", "heuristics"}
    )


class SourceChecker(ast.NodeVisitor):
    """Walks a module once: imports, names, calls and assignments against the rules; findings in order met."""

    def __init__(self, extra_imports: set[str], extra_ops: set[str], *, language: str = "triton",
                 allowed_libraries: set[str] | None = None, library: set[str] | None = None) -> None:
        self.findings: list[Finding] = []
        families = set(LIBRARY_FAMILIES) if library is None else library
        # library calls: name -> None (allowed) or the family the policy forbids
        self.library_calls: dict[str, str | None] = {
            name: (None if family in families else family) for family, names in LIBRARY_NAMES.items() for name in names}
        self.gemm_allowed = "gemm" in families
        self.library_used = False  # a library call the policy allows: a candidate may be those alone
        self.families = families
        self.library_modules: dict[str, str] = {}  # self.<name> built in __init__ as a library module -> family
        self.cuda = language == "cuda"
        self.allowed_libraries = allowed_libraries or set()
        # CUDA candidates may import CuPy and load_inline; nothing else of cpp_extension.
        self.extra_imports = extra_imports | ({"cupy", "cupy_backends"} if self.cuda else set())
        self.extra_ops = extra_ops
        self.aliases: dict[str, str] = {}  # local name -> dotted module or object ("F" -> "torch.nn.functional")
        self.kernels = 0
        self.has_model_new = False
        self.in_kernel = 0  # depth inside @triton.jit functions: device code, not host code
        self.in_init = 0  # inside __init__: building parameters may compute

    def add(self, kind: ErrorKind, node: ast.AST, message: str) -> None:
        self.findings.append(Finding(kind, getattr(node, "lineno", 0), message))

    # -- imports ---------------------------------------------------------------------------
    def _check_module(self, module: str, node: ast.AST) -> None:
        if module.startswith("torch.") and any(part.startswith("_") for part in module.split(".")[1:]):
            self.add(ErrorKind.DYNAMIC_CODE, node, f"{module}: private torch modules are not allowed in a kernel")
            return
        if self.cuda and module in ("torch.utils.cpp_extension", "torch.utils.cpp_extension.load_inline"):
            return
        if self.cuda and module.startswith("torch.utils.cpp_extension."):
            self.add(ErrorKind.FILE_OR_NETWORK, node, f"{module}: CUDA kernels are built with load_inline from "
                                                      "sources in the module, not from files")
            return
        for prefix, kind in FORBIDDEN_SUBMODULES.items():
            if module == prefix or module.startswith(prefix + "."):
                self.add(kind, node, f"import of {module} is not allowed in a kernel")
                return
        top = module.split(".")[0]
        if top in ALLOWED_IMPORTS or module in self.extra_imports or top in self.extra_imports:
            return
        kind = IMPORT_KINDS.get(top, ErrorKind.FORBIDDEN_IMPORT)
        self.add(kind, node, f"import of {module!r} is not allowed (kernels may import torch, triton, math, typing)")

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._check_module(alias.name, node)
            local = alias.asname or alias.name.split(".")[0]
            self.aliases[local] = alias.name if alias.asname else alias.name.split(".")[0]

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if any(alias.name == "Model" for alias in node.names):  # the most precise reason goes first
            self.add(ErrorKind.CALLS_REFERENCE, node, "the candidate imports the reference Model")
        if node.level:
            self.add(ErrorKind.FORBIDDEN_IMPORT, node, "relative imports are not allowed in a kernel")
            return
        self._check_module(module, node)
        for alias in node.names:
            if module.split(".")[0] in ALLOWED_IMPORTS:  # from torch import _C, and the like
                self._check_module(f"{module}.{alias.name}", node)
            self.aliases[alias.asname or alias.name] = f"{module}.{alias.name}"

    def resolve(self, node: ast.AST) -> str | None:
        """The dotted path a name chain refers to, through import aliases."""
        dotted = dotted_name(node)
        if dotted is None:
            return None
        head, _, rest = dotted.partition(".")
        if head in self.aliases:
            return self.aliases[head] + ("." + rest if rest else "")
        return dotted

    # -- definitions -------------------------------------------------------------------------
    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        jitted = any(_is_jit_decorator(d) for d in node.decorator_list)
        if jitted and not self.in_kernel:
            self.kernels += 1
        if isinstance(node, ast.AsyncFunctionDef):
            self.add(ErrorKind.THREADS, node, "async functions are not allowed in a kernel")
        self.in_kernel += jitted
        self.in_init += node.name == "__init__"
        self.generic_visit(node)
        self.in_kernel -= jitted
        self.in_init -= node.name == "__init__"

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        if node.name == "ModelNew":
            self.has_model_new = True
        self.generic_visit(node)

    def visit_Try(self, node: ast.Try) -> None:
        self.add(
            ErrorKind.TRY_EXCEPT_FALLBACK,
            node,
            "try/except is not allowed: a kernel must not fall back to PyTorch when it fails",
        )
        self.generic_visit(node)

    def visit_TryStar(self, node: ast.TryStar) -> None:
        self.add(ErrorKind.TRY_EXCEPT_FALLBACK, node, "try/except* is not allowed in a kernel")
        self.generic_visit(node)

    # -- names and attributes ----------------------------------------------------------------
    def visit_Name(self, node: ast.Name) -> None:
        if node.id == "Model":
            self.add(ErrorKind.CALLS_REFERENCE, node, "the candidate uses the reference Model")
        elif node.id == "__builtins__":
            self.add(ErrorKind.DYNAMIC_CODE, node, "__builtins__ is not allowed")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr.startswith("__") and node.attr not in SAFE_DUNDERS:
            self.add(ErrorKind.DYNAMIC_CODE, node, f"access to {node.attr} is not allowed")
        resolved = self.resolve(node) or ""
        if resolved.startswith("torch.") and any(p.startswith("_") and not p.startswith("__")
                                                 for p in resolved.split(".")[1:]):
            self.add(ErrorKind.DYNAMIC_CODE, node, f"{resolved}: private torch internals are not allowed in a kernel")
        if node.attr in STREAM_NAMES and resolved.startswith("torch"):
            self.add(ErrorKind.SIDE_STREAM, node, f"{resolved}: kernels must run on the current stream")
        for prefix, kind in FORBIDDEN_SUBMODULES.items():
            if resolved == prefix or resolved.startswith(prefix + "."):
                if self.cuda and resolved in ("torch.utils.cpp_extension", "torch.utils.cpp_extension.load_inline"):
                    continue
                self.add(kind, node, f"{resolved} is not allowed in a kernel")
        if resolved in {"torch.compile", "torch.jit.script", "torch.jit.trace"}:
            self.add(ErrorKind.TORCH_COMPUTE, node, f"{resolved}: the candidate must be a Triton kernel")
        self.generic_visit(node)

    # -- assignments: monkey-patching ----------------------------------------------------------
    def _check_target(self, target: ast.expr) -> None:
        if isinstance(target, ast.Tuple | ast.List):
            for elt in target.elts:
                self._check_target(elt)
            return
        if isinstance(target, ast.Attribute | ast.Subscript):
            base = target.value
            while isinstance(base, ast.Attribute | ast.Subscript):
                base = base.value
            if isinstance(base, ast.Name) and base.id in self.aliases:
                what = self.resolve(target.value if isinstance(target, ast.Attribute) else base) or base.id
                attr = target.attr if isinstance(target, ast.Attribute) else ""
                kind, message = settings_assignment(what, attr)
                self.add(kind, target, message)

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._check_target(target)
            family = self._library_module(node.value)
            if self.in_init and family and isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                    and target.value.id == "self":
                self.library_modules[target.attr] = family
        self.generic_visit(node)

    def _library_module(self, value: ast.expr) -> str | None:
        """The family of ``nn.LSTM(...)`` and the like; None for any other value."""
        if not isinstance(value, ast.Call):
            return None
        namespace, _, name = (self.resolve(value.func) or "").rpartition(".")
        return LIBRARY_MODULES.get(name) if namespace in ("torch.nn", "torch.nn.modules") else None

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._check_target(node.target)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._check_target(node.target)
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            self._check_target(target)
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        self.add(ErrorKind.DYNAMIC_CODE, node, "global state (the global statement) is not allowed")

    # -- calls ---------------------------------------------------------------------------------
    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name):
            if func.id in DYNAMIC_BUILTINS:
                self.add(ErrorKind.DYNAMIC_CODE, node, f"{func.id}() is not allowed in a kernel")
            elif func.id in FILE_BUILTINS:
                self.add(ErrorKind.FILE_OR_NETWORK, node, f"{func.id}() is not allowed in a kernel")
            elif func.id == "getattr" and not (
                len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
                and not node.args[1].value.startswith("__")
            ):
                self.add(ErrorKind.DYNAMIC_CODE, node, "getattr() with a computed name is not allowed")
        if self.cuda:
            self._check_cuda_call(node)
        self._check_settings_call(node)
        if not self.in_kernel and not self.in_init:
            self._check_host_compute(node)
            self._check_module_call(node)
        self.generic_visit(node)

    def _check_settings_call(self, node: ast.Call) -> None:
        found = settings_call(self.resolve(node.func) or "", [k.arg or "" for k in node.keywords],
                              bool(node.args or node.keywords))
        if found is not None:
            self.add(found[0], node, found[1])

    def _check_module_call(self, node: ast.Call) -> None:
        """``self.lstm(x)`` of a module built in __init__ as a library module: a library call of its family."""
        func = node.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self"):
            return
        family = self.library_modules.get(func.attr)
        if family is None:
            return
        if family in self.families:
            self.library_used = True
        else:
            self.add(ErrorKind.LIBRARY_CALL, node, f"self.{func.attr}() hands {family} work to a vendor library, "
                                                   "which this run's library policy does not allow: the kernels "
                                                   "must do it")

    def _is_current_stream(self, node: ast.Call) -> bool:
        """``ExternalStream(torch.cuda.current_stream().cuda_stream)``: the one stream a kernel may use."""
        arg = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "ptr"), None)
        return (isinstance(arg, ast.Attribute) and arg.attr == "cuda_stream" and isinstance(arg.value, ast.Call)
                and self.resolve(arg.value.func) == "torch.cuda.current_stream")

    def _check_cuda_call(self, node: ast.Call) -> None:
        resolved = self.resolve(node.func) or ""
        if resolved.startswith("torch.utils.cpp_extension."):
            if resolved != "torch.utils.cpp_extension.load_inline":
                self.add(ErrorKind.FILE_OR_NETWORK, node, f"{resolved}() is not allowed: build CUDA with load_inline "
                                                          "from sources in the module")
                return
            for kw in node.keywords:
                if kw.arg == "extra_ldflags" and isinstance(kw.value, ast.List | ast.Tuple):
                    flags = [e.value for e in kw.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
                    self.findings += [Finding(k, line, m) for k, line, m in
                                      check_link_flags(flags, node.lineno, self.allowed_libraries)]
        elif resolved.startswith("cupy."):
            if resolved == "cupy.cuda.ExternalStream" and not self._is_current_stream(node):
                self.add(ErrorKind.SIDE_STREAM, node, "cupy.cuda.ExternalStream() of another stream than torch's "
                                                      "current one (torch.cuda.current_stream().cuda_stream)")
            elif resolved.startswith("cupy.cuda.runtime.stream") or resolved.startswith("cupy.cuda.runtime.event"):
                kind = ErrorKind.SIDE_STREAM if ".stream" in resolved else ErrorKind.TIMER_ACCESS
                self.add(kind, node, f"{resolved}(): kernels must run on torch's current stream, untimed by themselves")
            elif resolved.endswith(".Stream") or resolved == "cupy.cuda.stream":
                self.add(ErrorKind.SIDE_STREAM, node, f"{resolved}(): kernels must run on torch's current stream "
                                                      "(cupy.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream))")
            elif resolved not in CUPY_ALLOWED and not resolved.startswith("cupy.cuda.runtime.get"):
                self.add(ErrorKind.LIBRARY_CALL, node, f"{resolved}() computes with CuPy's library kernels; "
                                                       "compile and launch your own with cupy.RawModule")

    def _library_call(self, node: ast.AST, name: str) -> bool:
        """Whether ``name`` is a library call (allowed, or named as outside the policy)."""
        if name not in self.library_calls:
            return False
        family = self.library_calls[name]
        self.library_used |= family is None
        if family is not None:
            self.add(ErrorKind.LIBRARY_CALL, node, f"{name}() hands {family} work to a vendor library, which this "
                                                   "run's library policy does not allow: the kernels must do it")
        return True

    def _check_host_compute(self, node: ast.Call) -> None:
        func = node.func
        resolved = self.resolve(func)
        if resolved is not None:
            namespace, _, name = resolved.rpartition(".")
            if namespace in TORCH_NAMESPACES and name not in ALLOWED_TORCH_FUNCS and name not in self.extra_ops:
                if self._library_call(node, name):
                    return
                if name[:1].isupper():  # a class: nn.Linear(...) and friends are built, then called
                    return
                self.add(ErrorKind.TORCH_COMPUTE, node, f"{resolved}() computes in PyTorch; the kernel must do it")
                return
        if isinstance(func, ast.Attribute) and func.attr in COMPUTE_METHODS and func.attr not in self.extra_ops:
            receiver = resolved.split(".")[0] if resolved is not None else ""
            # self.linear(x) may be a submodule or a method of the candidate's: the op recorder judges it
            if receiver in {"math", "triton", "self", "cupy"} or (receiver in self.aliases and receiver != "torch"):
                return
            if self._library_call(node, func.attr):
                return
            self.add(ErrorKind.TORCH_COMPUTE, node, f".{func.attr}() computes in PyTorch; the kernel must do it")

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if isinstance(node.op, ast.MatMult) and not self.in_kernel:
            self.library_used |= self.gemm_allowed
        if isinstance(node.op, ast.MatMult) and not self.in_kernel and not self.gemm_allowed:
            self.add(ErrorKind.LIBRARY_CALL, node, "the @ operator hands a GEMM to a vendor library, which this run's "
                                                   "library policy does not allow: the kernel must do it")
        self.generic_visit(node)

    # -- whole module ------------------------------------------------------------------------
    def finish(self, tree: ast.Module) -> None:
        if not self.has_model_new:
            self.add(ErrorKind.MISSING_MODEL_NEW, tree, "the candidate defines no class ModelNew(nn.Module)")
        # a CUDA candidate's kernels are counted in its C++; a candidate of library calls alone (a GEMM
        # spec's cuBLAS) is judged at run time against the reference's library work
        if not self.kernels and not self.cuda and not self.library_used:
            self.add(ErrorKind.NO_KERNEL, tree, "the candidate defines no @triton.jit kernel")


__all__ = ["SourceChecker"]
