"""Schemathesis against the live server's OpenAPI document: no 5xx, and every response matches its schema.

Every operation (but the endless event stream) gets generated requests, valid and not,
sent with a valid token to a server that starts no runs; each response is checked.
"""

from __future__ import annotations

import pytest
import schemathesis
from api_server import Server
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

pytestmark = pytest.mark.slow
CHECKS = [not_a_server_error, response_schema_conformance, status_code_conformance, content_type_conformance]


def test_every_operation_conforms_to_its_schema(quiet_server: Server) -> None:
    schema = schemathesis.openapi.from_url(f"{quiet_server.url}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    checked = []
    for operation in operations:
        if operation.path.endswith("/events"):  # never ends by itself: test_api reads it
            continue

        @given(case=operation.as_strategy())
        @settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def conforms(case: schemathesis.Case) -> None:
            case.call_and_validate(base_url=quiet_server.url, checks=CHECKS,
                                   headers={"Authorization": f"Bearer {quiet_server.token}"})

        conforms()
        checked.append(f"{operation.method.upper()} {operation.path}")
    assert len(checked) >= 14, checked
