"""A real OpenAI-compatible HTTP server on 127.0.0.1 with scripted replies, for LLM tests.

litellm talks to it exactly as to a provider (``api_base=server.base_url``). Replies are
taken from a script in order, or computed by a ``responder`` from the request; each can be
a completion, an HTTP error (429, 401, 500, with headers), a malformed body, or a delay
longer than the client's timeout.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    content: str | None = None  # the assistant's text
    status: int = 200
    raw_body: str | None = None  # sent as is (a malformed reply)
    delay_s: float = 0.0  # wait before answering (to cause client timeouts)
    prompt_tokens: int = 100
    completion_tokens: int = 50
    headers: dict[str, str] = field(default_factory=dict)


class ScriptedLLMServer:
    def __init__(self) -> None:
        self.script: deque[Reply] = deque()
        self.responder: Callable[[dict[str, Any]], Reply] | None = None
        self.requests: list[dict[str, Any]] = []
        self.keys: list[str] = []  # each request's Authorization header (the key the client sent)
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep test output quiet
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                request = json.loads(self.rfile.read(length) or b"{}")
                with server._lock:
                    server.requests.append(request)
                    server.keys.append(self.headers.get("Authorization", ""))
                    reply = server._next(request)
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                body = reply.raw_body if reply.raw_body is not None else json.dumps(
                    _completion(request, reply) if reply.status == 200 else _error(reply.status))
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    for key, value in reply.headers.items():
                        self.send_header(key, value)
                    self.send_header("Content-Length", str(len(body.encode())))
                    self.end_headers()
                    self.wfile.write(body.encode())
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def add(self, *replies: Reply) -> None:
        self.script.extend(replies)

    def _next(self, request: dict[str, Any]) -> Reply:
        if self.script:
            return self.script.popleft()
        if self.responder is not None:
            return self.responder(request)
        return Reply(status=500)

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _completion(request: dict[str, Any], reply: Reply) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-{time.time_ns()}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model", "test"),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": reply.content or ""},
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens,
                  "total_tokens": reply.prompt_tokens + reply.completion_tokens},
    }


def _error(status: int) -> dict[str, Any]:
    kinds = {401: "invalid_api_key", 404: "model_not_found", 429: "rate_limit_exceeded", 500: "server_error"}
    return {"error": {"message": f"scripted {status}", "type": kinds.get(status, "error"),
                      "code": kinds.get(status, "error")}}


def kernel_variant(seed: str, n: int) -> str:
    """The GELU seed with its n-th block size and warp count: a kernel a model might return."""
    blocks, warps = [256, 512, 1024, 2048, 4096], [1, 2, 4, 8]
    source = seed.replace("BLOCK_SIZE=1024", f"BLOCK_SIZE={blocks[n % 5]}")
    source = source.replace("num_warps=4", f"num_warps={warps[(n // 5) % 4]}")
    return source + f"\n# variant {n}\n"


EVOLVED = "\n".join(f"## {s}\nEvolved advice on {s.lower()}." for s in ("Philosophy", "Strategies", "Pitfalls",
                                                                          "Analysis"))


def kernel_responder(seed: str) -> Callable[[dict[str, Any]], Reply]:
    """Replies a model might give in a GELU search: kernel variants (a fenced module, or a SEARCH/REPLACE
    edit for the diff operator), a malformed reply now and then, and evolved meta-prompts."""
    counter = iter(range(10_000))

    def respond(request: dict[str, Any]) -> Reply:
        system = request["messages"][0]["content"]
        user = request["messages"][-1]["content"]
        if "You improve the instructions" in system:
            return Reply(content=EVOLVED, prompt_tokens=300, completion_tokens=80)
        n = next(counter)
        if n in (1, 5):
            return Reply(content="no code today")
        if "SEARCH" in user:
            return Reply(content="<<<<<<< SEARCH\n        x = x.contiguous()\n=======\n        x = x.contiguous()  "
                                 f"# edit {n}\n>>>>>>> REPLACE")
        return Reply(content=f"```python\n{kernel_variant(seed, n)}```")

    return respond
