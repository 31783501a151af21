"""The content hash that dedupes candidates: white space at line ends does not count, anything else does."""

from __future__ import annotations

import hashlib
import random

from kernelevo.records.candidate import REMEMBERED, remember_source_hash, remembered_source_hash, source_hash


def reference(source: str) -> str:
    """The definition: each line right-stripped, the whole stripped."""
    normalized = "\n".join(line.rstrip() for line in source.strip().splitlines())
    return hashlib.sha256(normalized.encode()).hexdigest()[:16]


def test_trailing_white_space_does_not_change_the_hash_and_code_does() -> None:
    kernel = "import triton\n\n@triton.jit\ndef k(x):\n    pass\n"
    assert source_hash(kernel) == source_hash(kernel.replace("\n", "  \n") + "\n\n")
    assert source_hash(kernel) == source_hash(kernel.replace("\n", "\r\n"))
    assert source_hash(kernel) != source_hash(kernel.replace("pass", "return"))
    assert source_hash(kernel) != source_hash(kernel.replace("    pass", "  pass"))  # leading space counts


def test_the_fast_path_agrees_with_the_definition_on_odd_white_space() -> None:
    rng = random.Random(0)
    pieces = ["x = 1", "  y", "\t", " ", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1f", "\x85", "\u2028",
              "\xa0", "\u3000", "é", "#", ""]
    for _ in range(3000):
        source = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        assert source_hash(source) == reference(source), repr(source)


def test_a_candidates_hash_follows_its_source_and_leaves_its_equality_alone() -> None:
    import pickle

    from kernelevo.records.candidate import Candidate

    made = Candidate(id=1, source="x = 1\n", operator="seed", created_at=0.0)
    unasked = Candidate(id=1, source="x = 1\n", operator="seed", created_at=0.0)
    assert made.source_hash == source_hash("x = 1\n")
    assert made == unasked  # one asked for its hash, the other not: still equal
    assert made.model_copy(update={"source": "y = 2\n"}).source_hash == source_hash("y = 2\n")
    sent = pickle.loads(pickle.dumps(made))  # as Ray sends it between an island and the driver
    assert sent.source_hash == made.source_hash and sent == made


def test_a_hash_handed_in_is_remembered_for_an_equal_source_until_pushed_out() -> None:
    made = "@triton.jit\ndef k(x):\n    pass  # made on an island\n"
    arrived = "".join(list(made))  # the same text, another string (as it comes out of Ray)
    assert arrived is not made
    remember_source_hash(made, "handed-in")
    assert remembered_source_hash(arrived) == "handed-in"  # not hashed again
    for i in range(REMEMBERED):
        remembered_source_hash(f"{made}# {i}\n")
    assert remembered_source_hash(arrived) == source_hash(made)  # forgotten: hashed
