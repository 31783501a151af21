"""The fork server: children forked from a preloaded zygote behave as started sandboxes do, and share nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

from test_sandbox import ENV, TESTS, _gone

from kernelevo.evaluation.judge.child_pool import ChildPool
from kernelevo.isolation.sandbox import Limits
from kernelevo.isolation.zygote import ForkedSandbox, ForkServer


def test_each_child_is_a_fresh_copy_of_the_preloaded_zygote(fork_server: ForkServer, scratch_dir: Path) -> None:
    first = ForkedSandbox(fork_server, scratch_root=str(scratch_dir))
    first.start()
    assert first.call(("remember", "left by the first"), {"*": 30}) == ["left by the first"]
    me = first.call(("process", None), {"*": 30})
    first.kill()
    second = ForkedSandbox(fork_server, scratch_root=str(scratch_dir))
    second.start()
    try:
        assert second.call(("remember", "second"), {"*": 30}) == ["second"]  # nothing of the first one
        other = second.call(("process", None), {"*": 30})
    finally:
        second.kill()
    assert me["pid"] != other["pid"]
    assert me["preloaded_by"] == other["preloaded_by"] == fork_server.pid  # the module was preloaded once, there
    for process in (me, other):  # a session of its own (killing it kills what it started), its own folder
        assert process["session"] == process["pid"]
        assert Path(process["cwd"]).parent == scratch_dir
    assert not Path(me["cwd"]).exists(), "the killed child's scratch folder was left behind"


def test_a_forked_child_is_ready_in_well_under_a_second(fork_server: ForkServer, scratch_dir: Path) -> None:
    box = ForkedSandbox(fork_server, scratch_root=str(scratch_dir))
    start = time.perf_counter()
    box.start()
    box.wait_ready(30)
    ready_s = time.perf_counter() - start
    box.kill()
    assert ready_s < 1.0  # a started child imports Python anew: seconds with torch; a fork: milliseconds


def test_forked_children_die_with_the_fork_server_and_its_parent(scratch_dir: Path) -> None:
    script = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {TESTS!r})
        from kernelevo.evaluation.judge.child_pool import ChildPool
        from kernelevo.isolation.sandbox import Limits
        pool = ChildPool("sandbox_handlers:Echo", None, env={ENV!r}, spare=1, limits=Limits(), fork=True)
        box, _ = pool.take()
        print(box.call(("pid", None), {{"*": 60}}), pool.zygote.pid, flush=True)
        time.sleep(600)
    """)
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    child_pid, zygote_pid = (int(x) for x in parent.stdout.readline().split())
    parent.kill()
    parent.wait()
    assert _gone(zygote_pid), "the fork server outlived its parent"
    assert _gone(child_pid), "a forked child outlived the fork server"


def test_a_pool_forks_its_children(scratch_dir: Path) -> None:
    pool = ChildPool("sandbox_handlers:Echo", "pooled", env=ENV, spare=2, limits=Limits(), fork=True,
                     scratch_root=str(scratch_dir))
    try:
        seen = []
        for _ in range(3):
            box, _ = pool.take()
            assert isinstance(box, ForkedSandbox)
            seen.append(box.call(("process", None), {"*": 30}))
            box.kill()
        assert pool.zygote is not None
        assert {s["preloaded_by"] for s in seen} == {pool.zygote.pid}
        assert len({s["pid"] for s in seen}) == 3
    finally:
        pool.close()
    assert not os.listdir(scratch_dir), "scratch folders were left behind"


def test_a_pool_whose_fork_server_fails_starts_children_itself(scratch_dir: Path) -> None:
    pool = ChildPool("sandbox_handlers:BrokenPreload", "no config", env=ENV, spare=1, limits=Limits(), fork=True,
                     scratch_root=str(scratch_dir))
    try:
        box, _ = pool.take()
        assert not isinstance(box, ForkedSandbox) and pool.zygote is None
        assert box.call(("echo", 3), {"*": 30}) == ("no config", 3)
        box.kill()
    finally:
        pool.close()


def test_children_killed_from_many_threads_while_others_are_forked(scratch_dir: Path) -> None:
    """The evaluator's threads kill their precompilers on their own while another thread forks the next:
    the fork server's connection carries one exchange at a time, and every child is reaped with its status."""
    pool = ChildPool("sandbox_handlers:Echo", "threads", env=ENV, spare=2, limits=Limits(), fork=True,
                     scratch_root=str(scratch_dir))
    take_lock = threading.Lock()  # as the evaluator takes precompilers: one thread at a time
    errors: list[BaseException] = []
    codes: list[int | None] = []

    def work(i: int) -> None:
        try:
            for j in range(6):
                with take_lock:
                    box, _ = pool.take()
                assert isinstance(box, ForkedSandbox)
                assert box.call(("echo", (i, j)), {"*": 30}) == ("threads", (i, j))
                box.kill()
                codes.append(box._code)
        except BaseException as exc:  # reported below, with the thread's work
            errors.append(exc)

    try:
        threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert not errors, errors[:3]
        assert len(codes) == 36 and codes.count(-signal.SIGKILL) == 36  # every child reaped, its status told
        assert pool.zygote is not None and pool.zygote.alive(), "the fork server was lost"
    finally:
        pool.close()
