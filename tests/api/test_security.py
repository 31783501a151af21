"""The Host names a server answers, from where it binds and what it is told."""

from __future__ import annotations

import socket

from kernelevo.api.security import allowed_hosts
from kernelevo.settings import Settings


def test_loopback_the_bound_address_and_the_configured_names() -> None:
    assert allowed_hosts(Settings(api_host="127.0.0.1")) == ["127.0.0.1", "localhost", "::1", "[::1]"]
    assert "10.1.2.3" in allowed_hosts(Settings(api_host="10.1.2.3"))
    assert "kernelevo.example.org" in allowed_hosts(Settings(api_allowed_hosts=["kernelevo.example.org"]))
    everywhere = allowed_hosts(Settings(api_host="0.0.0.0"))  # a client on the network uses the machine's name
    assert socket.gethostname() in everywhere and "0.0.0.0" not in everywhere
