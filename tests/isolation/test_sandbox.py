"""Isolated children, started or forked: replies, errors, deadlines per phase, deaths, process groups, limits,
and what they print."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kernelevo.isolation.sandbox import OUTPUT_LOG, Limits, Sandbox, SandboxFailure, describe_exit
from kernelevo.isolation.zygote import ForkedSandbox, ForkServer, ZygoteSetup

TESTS = str(Path(__file__).resolve().parent.parent)  # tests/: the handlers sandbox_handlers.py and output_handlers.py
ENV = {"PYTHONPATH": os.pathsep.join([TESTS, os.environ.get("PYTHONPATH", "")])}


def _gone(pid: int, within_s: float = 5.0) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        # a zombie still answers kill(0); look at its state
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split()[2]
        except FileNotFoundError:
            return True
        if state == "Z":
            return True
        time.sleep(0.05)
    return False


@pytest.fixture(params=["started", "forked"])
def box(request: pytest.FixtureRequest) -> Iterator[Sandbox]:
    """A child started as a new process, or forked by the fork server (kernelevo.isolation.zygote): both alike."""
    if request.param == "forked":
        sandbox: Sandbox = ForkedSandbox(request.getfixturevalue("fork_server"), name="test")
    else:
        sandbox = Sandbox("sandbox_handlers:Echo", "hello", env=ENV, name="test")
    sandbox.start()
    yield sandbox
    sandbox.kill()


def test_reply_round_trip(box: Sandbox) -> None:
    assert box.call(("echo", [1, 2]), {"*": 30}) == ("hello", [1, 2])
    assert box.call(("echo", "again"), {"*": 30}) == ("hello", "again")


def test_what_a_child_built_before_its_first_request_is_kept_from_the_collector(box: Sandbox) -> None:
    assert box.call(("frozen", None), {"*": 30}) > 1000  # at least what the interpreter and the handler imported


def test_handler_exception_is_a_failure_not_a_crash(box: Sandbox) -> None:
    with pytest.raises(SandboxFailure) as info:
        box.call(("raise", "bad input"), {"*": 30})
    assert info.value.kind == "handler_error"
    assert "ValueError: bad input" in info.value.message
    assert box.call(("echo", 1), {"*": 30}) == ("hello", 1)  # the child lives on


def test_a_reply_that_cannot_be_sent_is_a_failure_not_a_crash(box: Sandbox) -> None:
    with pytest.raises(SandboxFailure) as info:
        box.call(("unpicklable", 1), {"*": 30})
    assert info.value.kind == "handler_error" and "could not be sent" in info.value.message
    assert box.call(("echo", 2), {"*": 30}) == ("hello", 2)  # the child lives on


def test_a_request_sent_while_the_child_starts_is_answered() -> None:
    box = Sandbox("sandbox_handlers:Echo", "early", env=ENV, name="test")
    box.start()  # no wait_ready: call() waits for the child to be ready, then for the reply
    try:
        assert box.call(("echo", 3), {"*": 60}) == ("early", 3)
    finally:
        box.kill()


def test_timeout_kills_the_child(box: Sandbox) -> None:
    pid = box.call(("pid", None), {"*": 30})
    start = time.monotonic()
    with pytest.raises(SandboxFailure) as info:
        box.call(("sleep", 60), {"*": 1.0})
    assert info.value.kind == "timeout"
    assert time.monotonic() - start < 10
    assert _gone(pid)


def test_a_child_stopped_from_another_thread_fails_its_call_as_a_death(box: Sandbox) -> None:
    # the seeding deadline stops a capture this way, whatever phase its child is in
    threading.Timer(0.5, box.stop).start()
    start = time.monotonic()
    with pytest.raises(SandboxFailure) as info:
        box.call(("sleep", 60), {"*": 30.0})
    assert info.value.kind == "died"
    assert time.monotonic() - start < 15
    assert not box.alive()


def test_each_phase_gets_its_own_deadline(box: Sandbox) -> None:
    # 'compile' may take 20 s, 'run' only 1: sleeping 3 s in 'run' must time out as 'run'.
    with pytest.raises(SandboxFailure) as info:
        box.call(("phases", ["compile", "run", 3]), {"compile": 20, "run": 1})
    assert info.value.phase == "run" and info.value.kind == "timeout"


def test_progress_notes_reach_the_caller(box: Sandbox) -> None:
    seen = []
    assert box.call(("phases", ["a", "b", 0]), {"*": 30}, on_progress=lambda p, t: seen.append(p.phase)) == "done"
    assert seen == ["a", "b"]


@pytest.mark.parametrize(("request_", "expected"), [
    (("exit", 7), "exit status 7"),
    (("signal", signal.SIGSEGV), "killed by SIGSEGV"),
])
def test_death_is_named(box: Sandbox, request_: tuple, expected: str) -> None:
    with pytest.raises(SandboxFailure) as info:
        box.call(request_, {"*": 30})
    assert info.value.kind == "died"
    assert expected in info.value.message


def test_timeout_kills_the_whole_process_group(box: Sandbox) -> None:
    grandchild: list[int] = []
    with pytest.raises(SandboxFailure) as info:
        box.call(("grandchild", 60), {"*": 2}, on_progress=lambda p, t: grandchild.append(int(p.detail)))
    assert info.value.kind == "timeout"
    assert grandchild and _gone(grandchild[0])
    assert not box.alive()


def test_address_space_limit() -> None:
    limited = Sandbox("sandbox_handlers:Echo", None, env=ENV, limits=Limits(address_space_bytes=2 << 30))
    with limited:
        assert limited.call(("allocate", 10 << 20), {"*": 30}) == 10 << 20
        with pytest.raises(SandboxFailure) as info:
            limited.call(("allocate", 4 << 30), {"*": 30})
        assert "MemoryError" in info.value.message


def test_handler_that_fails_to_start() -> None:
    broken = Sandbox("sandbox_handlers:BrokenAtStart", "no config", env=ENV)
    broken.start()
    with pytest.raises(SandboxFailure) as info:
        broken.wait_ready(30)
    assert info.value.kind == "start" and "cannot start: no config" in info.value.message


def test_child_dies_with_its_parent(tmp_path: Path) -> None:
    script = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {TESTS!r})
        from kernelevo.isolation.sandbox import Sandbox
        box = Sandbox("sandbox_handlers:Echo", None, env={ENV!r})
        box.start()
        print(box.call(("pid", None), {{"*": 60}}), flush=True)
        time.sleep(600)
    """)
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    child_pid = int(parent.stdout.readline())
    parent.kill()
    parent.wait()
    assert _gone(child_pid), "the sandbox child outlived its parent"


def test_describe_exit() -> None:
    assert describe_exit(0) == "exit status 0"
    assert describe_exit(-9) == "killed by SIGKILL"
    assert describe_exit(None) == "exit status unknown"


# -- what children print -----------------------------------------------------------------------
# Each test starts its children (and fork server) itself: a child prints where its descriptors pointed
# when it was started, so only one started while capfd captures shows what would reach the terminal.


@pytest.fixture(params=["started", "forked"])
def printer(request: pytest.FixtureRequest) -> Iterator[Callable[..., Sandbox]]:
    """Makes started sandboxes of tests/output_handlers.py's Printer, or forks them from a zygote of their own."""
    boxes: list[Sandbox] = []
    servers: list[ForkServer] = []

    def make(*, capture_output: bool = True) -> Sandbox:
        if request.param == "forked":
            if not servers:
                zygote = Sandbox("kernelevo.isolation.zygote:Zygote", ZygoteSetup("output_handlers:Printer", None),
                                 env=ENV, name="zygote")
                zygote.start()
                servers.append(ForkServer(zygote))
            box: Sandbox = ForkedSandbox(servers[0], name="test", capture_output=capture_output)
        else:
            box = Sandbox("output_handlers:Printer", None, env=ENV, name="test", capture_output=capture_output)
        box.start()
        boxes.append(box)
        return box

    yield make
    for box in boxes:
        box.kill()
    for server in servers:
        server.kill()


def test_what_a_child_prints_is_kept_off_the_terminal(printer: Callable[..., Sandbox],
                                                      capfd: pytest.CaptureFixture[str]) -> None:
    box = printer()
    assert box.call(("print", "kept"), {"*": 30}) == "printed"
    tail = box.output_tail()
    for way in ("on stdout", "on stderr", "through fd 1", "from a grandchild"):
        assert f"kept {way}\n" in tail
    out, err = capfd.readouterr()
    assert "kept" not in out + err


def test_without_capture_a_child_prints_to_the_terminal_and_has_no_tail(
        printer: Callable[..., Sandbox], capfd: pytest.CaptureFixture[str]) -> None:
    box = printer(capture_output=False)
    assert box.call(("print", "shown"), {"*": 30}) == "printed"
    assert box.output_tail() == ""
    out, err = capfd.readouterr()  # so the test above sees the terminal it claims to keep clean
    assert "shown on stdout" in out and "shown on stderr" in err and "shown from a grandchild" in out


def test_a_child_that_printed_nothing_has_an_empty_tail(printer: Callable[..., Sandbox]) -> None:
    box = printer()
    assert box.call(("nothing", None), {"*": 30}) == "quiet"
    assert box.output_tail() == ""


def test_a_long_output_is_cut_at_a_whole_line_after_saying_how_much_came_before(
        printer: Callable[..., Sandbox]) -> None:
    box = printer()
    box.call(("lines", 20_000), {"*": 60})
    printed = "".join(f"line {i}\n" for i in range(20_000))
    tail = box.output_tail(1000)
    note, rest = tail.split("\n", 1)
    match = re.fullmatch(r"\[\.\.\. (\d+) bytes earlier\]", note)
    assert match, note
    assert printed.endswith(rest) and rest.startswith("line ") and rest.endswith("line 19999\n")
    assert len(rest) <= 1000 and int(match.group(1)) + len(rest) == len(printed)
    assert f"\n{rest}" in printed  # it starts at a whole line
    assert box.output_tail() == box.output_tail(4096) and len(box.output_tail()) < 4096 + len(note) + 1


def test_the_tail_outlives_a_child_killed_on_its_deadline(printer: Callable[..., Sandbox]) -> None:
    box = printer()
    with pytest.raises(SandboxFailure) as info:
        box.call(("print_then_sleep", "last words"), {"*": 2})
    assert info.value.kind == "timeout"
    assert not Path(box.scratch).exists()  # killed, its folder removed, its output's end kept
    assert box.output_tail() == "last words\n"
    box.kill()
    assert box.output_tail() == "last words\n"


def test_a_tail_is_never_an_exception(tmp_path: Path) -> None:
    never_started = Sandbox("output_handlers:Printer", None, env=ENV, capture_output=True)
    assert never_started.output_tail() == ""
    unreadable = Sandbox("output_handlers:Printer", None, env=ENV, capture_output=True)
    unreadable.scratch = str(tmp_path)
    (tmp_path / OUTPUT_LOG).mkdir()  # a folder where the output should be
    assert unreadable.output_tail() == ""


def test_a_reply_is_stamped_when_it_becomes_readable_not_once_read() -> None:
    # The judge's wall-time check reads replied_at: the time to read and unpickle a reply (and, in the judge,
    # each read's wait for the GIL behind its other threads) must not count as the child's. A 64 MB reply takes
    # tens of milliseconds to come through the pipe after its first bytes made it readable; the child stamps
    # it before pickling it (perf_counter is one clock for all the processes of a host).
    box = Sandbox("sandbox_handlers:Echo", "hello", env=ENV, name="test")
    box.start()
    try:
        box.call(("echo", 0), {"*": 30})
        made, _ = box.call(("stamped", 64_000_000), {"*": 30})
        returned = time.perf_counter()
    finally:
        box.kill()
    assert made < box.replied_at < returned
    # read after it was stamped: 160 to 300 ms on 2 cores, loaded or not; stamped once read, 0.01 ms (the child's
    # own pickling of it, before its first bytes, took 190 ms on a loaded machine: no measure to compare with)
    assert returned - box.replied_at > 0.02
