"""A judge kept warm between ``kernelevo eval`` commands: ``kernelevo eval --keep-warm MINUTES``.

Starting a judge costs 7 to 10 s on a GPU host (Python and torch import, each reference run
once), more than judging a kernel. With ``--keep-warm`` the command hands its kernels to a
*warm evaluator*: a detached process holding one started
:class:`~kernelevo.evaluation.Evaluator` for one spec and one set of options, reached over a
Unix socket in the user's cache directory (mode 0600, with a random key of its own). The
first command starts it and waits for it; later commands for the same spec and options use
it at once; it exits after ``MINUTES`` without a request. It holds the judge's GPU memory
while it waits, which is why it is opt-in.

It runs nothing new: kernels are judged by its evaluator exactly as in the command itself.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing import AuthenticationError
from multiprocessing.connection import Client, Connection, answer_challenge, deliver_challenge
from pathlib import Path

from kernelevo.evaluation.judge.evaluator import Evaluator
from kernelevo.records.options import EvalOptions
from kernelevo.records.result import EvalResult
from kernelevo.spec.errors import SpecError
from kernelevo.spec.spec import Spec
from kernelevo.utils.paths import cache_dir

START_TIMEOUT_S = 900.0  # the judge's start: imports, references, baselines (torch.compile) on a cold cache


@dataclass
class _Setup:
    spec: Spec
    options: EvalOptions
    idle_s: float


@dataclass
class _Judge:
    sources: list[str]


@dataclass
class _Failed:
    message: str  # why the warm evaluator could not start (a spec error)


def judge_all(evaluator: Evaluator, sources: list[str]) -> list[EvalResult]:
    """Judge ``sources`` on a started evaluator, as many at once as it takes, in order."""
    with ThreadPoolExecutor(evaluator.slots) as threads:
        return list(threads.map(evaluator.evaluate, sources))


def _paths(spec: Spec, options: EvalOptions) -> tuple[Path, Path]:
    key = hashlib.sha256(json.dumps([spec.sha256, options.model_dump(mode="json")], sort_keys=True).encode())
    folder = cache_dir() / "warm"
    name = key.hexdigest()[:24]
    return folder / f"{name}.sock", folder / f"{name}.key"


def judge_warm(spec: Spec, sources: list[str], options: EvalOptions, *, idle_minutes: float) -> list[EvalResult]:
    """Judge ``sources`` on the warm evaluator for ``spec`` and ``options``, starting it if there is none.

    Raises :class:`SpecError` when its judge cannot start.
    """
    socket_path, key_path = _paths(spec, options)
    connection = _connect(socket_path, key_path)
    if connection is None:
        _start(spec, options, idle_minutes * 60, socket_path, key_path)
        connection = _connect(socket_path, key_path, wait_s=START_TIMEOUT_S)
    if connection is None:
        raise SpecError(f"the warm evaluator did not start within {START_TIMEOUT_S:.0f} s (its log: "
                        f"{socket_path.with_suffix('.log')})")
    with connection:
        connection.send(_Judge(sources))
        reply = connection.recv()
    if isinstance(reply, _Failed):
        raise SpecError(reply.message)
    return reply


def _connect(socket_path: Path, key_path: Path, *, wait_s: float = 0.0) -> Connection | None:
    deadline = time.monotonic() + wait_s
    while True:
        with contextlib.suppress(OSError, EOFError, ValueError):
            return Client(str(socket_path), family="AF_UNIX", authkey=key_path.read_bytes())
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.2)


def _start(spec: Spec, options: EvalOptions, idle_s: float, socket_path: Path, key_path: Path) -> None:
    """Start the warm evaluator detached from this command (its own session; it outlives it)."""
    import pickle

    socket_path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    setup = socket_path.with_suffix(".setup")
    setup.write_bytes(pickle.dumps(_Setup(spec, options, idle_s)))
    log = socket_path.with_suffix(".log").open("w")
    subprocess.Popen([sys.executable, "-m", "kernelevo.evaluation.judge.warm", str(socket_path), str(key_path)],
                     start_new_session=True, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)


def serve(socket_path: Path, key_path: Path) -> None:
    """The warm evaluator's process: start the judge, answer until idle for ``idle_s``, then leave."""
    import pickle

    setup: _Setup = pickle.loads(socket_path.with_suffix(".setup").read_bytes())
    key = secrets.token_bytes(32)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old_umask = os.umask(0o077)  # the socket and the key: this user's alone
    try:
        with contextlib.suppress(FileNotFoundError):
            socket_path.unlink()
        server.bind(str(socket_path))
        key_path.write_bytes(key)
    finally:
        os.umask(old_umask)
    server.listen()
    evaluator = Evaluator(setup.spec, setup.options)
    failure = None
    try:
        evaluator.start()
    except SpecError as exc:
        failure = _Failed(str(exc))
    try:
        _answer(server, key, evaluator, failure, setup.idle_s)
    finally:
        server.close()
        evaluator.close()
        for path in (key_path, socket_path, socket_path.with_suffix(".setup")):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()


def _answer(server: socket.socket, key: bytes, evaluator: Evaluator, failure: _Failed | None,
            idle_s: float) -> None:
    server.settimeout(idle_s)
    while True:
        try:
            client, _ = server.accept()
        except TimeoutError:
            return  # idle for idle_s: the GPU memory goes back
        client.settimeout(None)
        with contextlib.suppress(OSError, EOFError, AuthenticationError), Connection(client.detach()) as connection:
            # the handshake a multiprocessing Listener makes: the client must hold the key
            deliver_challenge(connection, key)
            answer_challenge(connection, key)
            request = connection.recv()
            if failure is not None:
                connection.send(failure)
                return
            connection.send(judge_all(evaluator, request.sources))


if __name__ == "__main__":
    serve(Path(sys.argv[1]), Path(sys.argv[2]))
