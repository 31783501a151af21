"""Getting a kernel out of an LLM reply: whole modules from code blocks, and SEARCH/REPLACE edits to a parent."""

from __future__ import annotations

import ast

import pytest

from kernelevo.variation.llm.extract import UnusableReply, apply_edits, extract_module

MODULE = '''import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        return launch(x, BLOCK=1024)
'''

MODULE_V2 = MODULE.replace("BLOCK=1024", "BLOCK=2048")

PARENT = '''import torch.nn as nn


def launch(x, block):
    # keep this comment
    y = x * 2
    z = y + 1
    return z


class ModelNew(nn.Module):
    def forward(self, x):
        y = x * 2
        return launch(x, 1024)
'''


def fenced(code: str, lang: str = "python") -> str:
    return f"```{lang}\n{code}```"


def edit(search: str, replace: str) -> str:
    return f"<<<<<<< SEARCH\n{search}\n=======\n{replace}\n>>>>>>> REPLACE"


def test_module_from_prose_and_a_python_block() -> None:
    reply = f"Here is a faster kernel.\n\n{fenced(MODULE)}\n\nIt uses wider blocks."
    assert extract_module(reply) == MODULE


@pytest.mark.parametrize("lang", ["", "py", "python3", "Python"])
def test_module_from_blocks_with_other_python_tags(lang: str) -> None:
    assert extract_module(f"Answer:\n{fenced(MODULE, lang)}\n") == MODULE


def test_the_last_valid_block_defining_model_new_wins() -> None:
    broken = MODULE_V2.replace("return launch(x, BLOCK=2048)", "return launch(x, BLOCK=")
    reply = "\n\n".join([
        "First try:", fenced(MODULE),
        "A helper:", fenced("def helper():\n    return 1\n"),
        "Better:", fenced(MODULE_V2),
        "A shell command:", fenced("class ModelNew: pass  # not python\n", "bash"),
        "An unfinished idea:", fenced(broken),
    ])
    assert extract_module(reply) == MODULE_V2


def test_a_bare_module_without_fences() -> None:
    assert extract_module("\n\n" + MODULE + "\n\n") == MODULE


def test_a_block_that_is_not_python_is_unusable() -> None:
    reply = fenced("class ModelNew(nn.Module):\n    def forward(self, x)\n        return x\n")
    with pytest.raises(UnusableReply, match="not valid Python") as caught:
        extract_module(reply)
    assert caught.value.kind == "unusable_reply"


def test_a_reply_cut_off_inside_a_block_is_unusable() -> None:
    reply = "Here is the kernel:\n```python\n" + MODULE[:60]
    with pytest.raises(UnusableReply, match="cut off") as caught:
        extract_module(reply)
    assert caught.value.kind == "unusable_reply"


def test_a_reply_cut_off_after_a_complete_helper_block_is_unusable() -> None:
    reply = "A helper:\n" + fenced("def helper():\n    return 1\n") + "\nThe model:\n```python\n" + MODULE[:60]
    with pytest.raises(UnusableReply, match="cut off"):
        extract_module(reply)


def test_no_model_new_is_unusable() -> None:
    for reply in (fenced("def kernel():\n    return 1\n"), "I cannot help with that.", ""):
        with pytest.raises(UnusableReply, match="ModelNew") as caught:
            extract_module(reply)
        assert caught.value.kind == "unusable_reply"


def test_one_edit() -> None:
    source, blocks = apply_edits(PARENT, "Change the block:\n" + edit("        return launch(x, 1024)",
                                                                       "        return launch(x, 4096)"))
    assert blocks == 1
    assert source == PARENT.replace("launch(x, 1024)", "launch(x, 4096)")


def test_several_edits_apply_in_order() -> None:
    reply = "\n\n".join([
        "First:", edit("    z = y + 1", "    z = y + 2"),
        "Second:", edit("        return launch(x, 1024)", "        return launch(x, 256)"),
        "Third, on top of the first:", edit("    z = y + 2\n    return z", "    return y + 2"),
    ])
    source, blocks = apply_edits(PARENT, reply)
    assert blocks == 3
    assert source == PARENT.replace("    z = y + 1\n    return z\n", "    return y + 2\n") \
        .replace("launch(x, 1024)", "launch(x, 256)")


def test_a_search_that_matches_twice_fails() -> None:
    with pytest.raises(UnusableReply, match="matches 2 places") as caught:
        apply_edits(PARENT, edit("y = x * 2", "y = x * 3"))
    assert caught.value.kind == "diff_failed"


def test_a_search_that_matches_nothing_fails() -> None:
    with pytest.raises(UnusableReply, match="matches nothing") as caught:
        apply_edits(PARENT, edit("    w = y - 1", "    w = y - 2"))
    assert caught.value.kind == "diff_failed"


def test_the_second_block_failing_names_it() -> None:
    reply = edit("    z = y + 1", "    z = y + 2") + "\n" + edit("    nothing = 0", "    nothing = 1")
    with pytest.raises(UnusableReply, match="SEARCH block 2 matches nothing"):
        apply_edits(PARENT, reply)


def test_a_reply_without_edit_blocks_is_unusable() -> None:
    with pytest.raises(UnusableReply) as caught:
        apply_edits(PARENT, fenced(MODULE))
    assert caught.value.kind == "unusable_reply"


def test_trailing_space_drift_still_applies_once() -> None:
    source, blocks = apply_edits(PARENT, edit("    z = y + 1   \n    return z  ", "    z = y - 1\n    return z"))
    assert blocks == 1
    assert source == PARENT.replace("z = y + 1", "z = y - 1")


def test_indentation_drift_is_reindented_to_the_parent() -> None:
    # the SEARCH is written at the top level; the parent has it inside a function
    search = "# keep this comment\ny = x * 2\nz = y + 1"
    replace = "# keep this comment\ny = x * 2\nif y is None:\n    y = x\nz = y + 1"
    source, _ = apply_edits(PARENT, edit(search, replace))
    assert source == PARENT.replace("    z = y + 1\n",
                                    "    if y is None:\n        y = x\n    z = y + 1\n")
    ast.parse(source)


def test_deeper_indentation_drift_is_reindented_to_the_parent() -> None:
    search = "            z = y + 1\n            return z"
    replace = "            z = y + 1\n            z = z * z\n            return z"
    source, _ = apply_edits(PARENT, edit(search, replace))
    assert source == PARENT.replace("    z = y + 1\n    return z\n", "    z = y + 1\n    z = z * z\n    return z\n")


def test_a_one_line_search_with_less_indentation_is_reindented() -> None:
    source, _ = apply_edits(PARENT, edit("z = y + 1", "z = y + 1\nz = z * z"))
    assert source == PARENT.replace("    z = y + 1\n", "    z = y + 1\n    z = z * z\n")


def test_an_edit_that_breaks_the_syntax_fails() -> None:
    with pytest.raises(UnusableReply, match="not valid Python") as caught:
        apply_edits(PARENT, edit("    z = y + 1", "    z = (y + 1"))
    assert caught.value.kind == "diff_failed"
