"""What every response carries, and which Host headers the server answers.

- A Host allow-list (Starlette's ``TrustedHostMiddleware``): 127.0.0.1, localhost, ::1, the
  address ``kernelevo serve`` binds, and ``KERNELEVO_API_ALLOWED_HOSTS``. A page on another site
  that rebinds its DNS name to 127.0.0.1 sends its own name as the Host and is refused (400), so
  it cannot read the open API of a server on the loopback.
- A Content-Security-Policy: scripts, styles, images and requests from this server only (the
  dashboard loads nothing from elsewhere); style *attributes* are allowed, as the dashboard's
  heatmap colours its cells with them (they cannot run code). Swagger UI and ReDoc get
  :data:`DOCS_CSP`, which also allows the ``<style>`` elements and the blob worker ReDoc makes.
- ``nosniff``, no referrer, no framing; and the body limit (413 before a large body is read).

A pure ASGI middleware: one per request costs microseconds, not a task and a queue as
``@app.middleware("http")`` does.
"""

from __future__ import annotations

import contextlib
import json
import logging
import socket
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kernelevo.settings import Settings

log = logging.getLogger(__name__)

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
DOCS_CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
            "worker-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
            "frame-ancestors 'none'")
HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
           (b"x-frame-options", b"DENY")]
LOOPBACK = ["127.0.0.1", "localhost", "::1", "[::1]"]
WILDCARD = ("0.0.0.0", "::", "")


def allowed_hosts(settings: Settings) -> list[str]:
    """The Host names this server answers: loopback, the bound address, and the configured ones. A server
    bound to every interface also answers its machine's name and addresses (a client on the network uses
    those); any other name needs ``KERNELEVO_API_ALLOWED_HOSTS`` (``'["kernelevo.example.org"]'``, or
    ``'["*"]'`` behind a proxy that checks Host itself)."""
    hosts = [*LOOPBACK, *settings.api_allowed_hosts]
    if settings.api_host in WILDCARD:
        name = socket.gethostname()
        hosts += [name, socket.getfqdn()]
        with contextlib.suppress(OSError):
            hosts += sorted({str(info[4][0]) for info in socket.getaddrinfo(name, None)})
        log.info("the API answers the Host names %s; KERNELEVO_API_ALLOWED_HOSTS adds others", ", ".join(hosts))
    else:
        hosts.append(settings.api_host)
    return list(dict.fromkeys(h for h in hosts if h))


class SecurityHeaders:
    """Adds the headers above to every HTTP response (a route's own CSP is kept); refuses a body over
    ``max_body_bytes`` by its Content-Length (413)."""

    def __init__(self, app: ASGIApp, *, max_body_bytes: int) -> None:
        self.app, self.max_body_bytes = app, max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for key, value in scope["headers"]:
            if key == b"content-length" and value.isdigit() and int(value) > self.max_body_bytes:
                await self._too_large(send, int(value))
                return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if not any(k.lower() == b"content-security-policy" for k, _ in headers):
                    headers.append((b"content-security-policy", CSP.encode()))
                message = {**message, "headers": headers + HEADERS}
            await send(message)

        await self.app(scope, receive, with_headers)

    async def _too_large(self, send: Send, length: int) -> None:
        body = json.dumps({"detail": f"the request is {length} bytes; this server takes at most "
                                     f"{self.max_body_bytes}"}).encode()
        headers: list[Any] = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                              (b"content-security-policy", CSP.encode()), *HEADERS]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})
