"""Fixtures of the API tests (the server itself is in tests/api_server.py, which the tests import)."""

from api_server import quiet_server, server  # noqa: F401
