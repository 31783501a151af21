"""The exported module's header is data: whatever a field holds, the module's code is the candidate's alone.

A property test feeds every field of the header (spec name, hardware, versions, host and device
names, numbers, the operator and the model) with quotes, triple quotes, newlines, backslashes,
carriage returns, U+2028, NUL, encoding declarations and code, and checks that the module parses
to exactly the candidate's statements, compiled from bytes (so a ``coding:`` line would count),
and that running it runs only the candidate. Exports of a spec whose stored name is a path stay
in their folder.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import math
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from synthetic_run import gpu_result, timing, write_run

from kernelevo.spec.names import is_name
from kernelevo.storage.export import _strip_docstring, drop_in_module, export_run, module_filename
from kernelevo.storage.tables import CandidateRow, SpecRow

PAYLOADS = ['"""', "'''", '"', "'", "\\", "\n", "\r", "\r\n", "\u2028", "\u2029", "\x00", "\x0c", "\x85",
            '""";print("INJECTED");"""', "\nimport os; os._exit(3)\n", "# -*- coding: utf-7 -*-\n",
            "coding: utf-7 +AAo-print(1)", "\\\n", "'''\nraise SystemExit\n'''", "\ufeff", "\ud800"]
text = st.one_of(st.sampled_from(PAYLOADS), st.text(max_size=40),
                 st.lists(st.one_of(st.sampled_from(PAYLOADS), st.text(max_size=8)), max_size=6).map("".join))
number = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.floats(min_value=1e-6, max_value=1e6))

CANDIDATE = '''"""The candidate's own docstring (the header replaces it)."""
import sys

RAN = []
RAN.append("candidate")


class ModelNew:
    """x"""
'''


def candidate_row(source: str, operator: str, model: str | None, made_at: float) -> CandidateRow:
    return CandidateRow(id=7, run_id=3, number=5, source=source, source_hash="0", operator=operator,
                        parent_numbers=[], island=0, note="", model=model, usage={}, created_at=made_at)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(spec_name=text, sha=text, hardware=text, device=text, host=text, versions=st.lists(text, min_size=4,
       max_size=4), variants=st.lists(text, max_size=3), operator=text, model=st.one_of(st.none(), text),
       median=number, iqr=number, speedup=number, interpreted=st.booleans(),
       made_at=st.floats(min_value=0, max_value=4e9))
def test_no_field_of_the_header_becomes_code(spec_name, sha, hardware, device, host, versions, variants, operator,
                                             model, median, iqr, speedup, interpreted, made_at) -> None:
    base = gpu_result(3)
    env = base.environment.model_copy(update={"device_name": device, "hostname": host, "torch": versions[0],
                                              "triton": versions[1], "python": versions[2], "cuda": versions[3]})
    result = base.model_copy(update={"environment": env, "variants_checked": variants, "interpreted": interpreted,
                                     "kernel": timing(median).model_copy(update={"iqr_ms": iqr}),
                                     "speedup_eager": speedup, "speedup_compile": speedup})
    module = drop_in_module(candidate_row(CANDIDATE, operator, model, made_at), result, spec_name=spec_name,
                            spec_sha256=sha, hardware=hardware)
    own = _strip_docstring(CANDIDATE)
    assert module.endswith(own)
    header = module[:-len(own)]
    assert header.isascii() and header.startswith("# -*- coding: utf-8 -*-\n")
    lines = header.rstrip("\n").split("\n")
    assert all(line.startswith("# ") for line in lines) and len(header.splitlines()) == header.count("\n")
    assert ast.parse(header).body == []  # comments only
    tree = compile(module.encode(), "best.py", "exec", ast.PyCF_ONLY_AST)  # bytes: PEP 263 applies
    assert ast.dump(tree) == ast.dump(ast.parse(own))
    namespace: dict[str, object] = {"__name__": "best"}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(module.encode(), "best.py", "exec"), namespace)  # the candidate's code only
    assert namespace["RAN"] == ["candidate"] and printed.getvalue() == ""
    fields = [json.loads(line.split(": ", 1)[1]) for line in lines[2:]]  # every value reads back as JSON
    assert fields[0] == spec_name.encode("utf-8", "surrogatepass").decode("utf-8", "surrogatepass")
    filename = module_filename(spec_name, 3, 5)
    assert is_name(filename.removesuffix("-run3-candidate5.py")) and filename.endswith("-run3-candidate5.py")


def test_the_header_keeps_what_a_reader_needs() -> None:
    result = gpu_result(1)
    module = drop_in_module(candidate_row(CANDIDATE, "llm", "gpt-x", 0.0), result, spec_name="gelu",
                            spec_sha256="ab" * 32, hardware="h100")
    assert f'# spec sha256: "{"ab" * 32}"' in module and '# hardware: "h100"' in module
    assert '# candidate: {"run": 3, "number": 5, "operator": "llm", "model": "gpt-x"}' in module
    timings = json.loads(next(line for line in module.splitlines() if line.startswith("# timings: "))[11:])
    assert timings.startswith("median ") and "x eager" in timings and not math.isnan(result.kernel.median_ms)


def test_a_stored_name_that_is_a_path_exports_inside_its_folder(db, tmp_path: Path) -> None:
    run_id = write_run(db, 6)["run_id"]
    for hostile in ["/tmp/abs_trav", "../../../../tmp/up", "x\ny", 'x""";print(1);"""']:
        with db.session() as session:
            session.query(SpecRow).update({SpecRow.name: hostile})  # a row from before names were checked
        target = tmp_path / "export"
        written = export_run(db, run_id, target)
        assert written and all(p.resolve().is_relative_to(target.resolve()) for p in written)
        assert all(p.parent.parent == target / "h100" and is_name(p.parent.name) for p in written)
        best = next(p for p in written if p.name == "best.py")
        ast.parse(best.read_text())
        assert json.loads((best.parent / "archive.json").read_text())["spec"] == hostile
    assert not Path("/tmp/abs_trav").exists() or not (Path("/tmp/abs_trav") / "best.py").exists()
