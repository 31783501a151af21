"""Fixtures of the API tests (the server itself is in conftest_api.py, which the tests import)."""

from conftest_api import quiet_server, server  # noqa: F401
