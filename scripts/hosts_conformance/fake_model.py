"""A fake Anthropic Messages API on 127.0.0.1 that answers every turn with one word and keeps each request.

Claude Code shows the model its skills in the request's system reminders; recording the request is how the
conformance run sees what the model would see, with no account and no network (it runs inside the same
loopback-only namespace as the agent).
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

REPLY_WORD = "ok"


def _sse(event: str, data: dict) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def _message(model: str) -> dict:
    return {"id": "msg_fake", "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}


def _stream(model: str) -> bytes:
    return b"".join([
        _sse("message_start", {"type": "message_start", "message": _message(model)}),
        _sse("content_block_start", {"type": "content_block_start", "index": 0,
                                     "content_block": {"type": "text", "text": ""}}),
        _sse("content_block_delta", {"type": "content_block_delta", "index": 0,
                                     "delta": {"type": "text_delta", "text": REPLY_WORD}}),
        _sse("content_block_stop", {"type": "content_block_stop", "index": 0}),
        _sse("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                               "usage": {"output_tokens": 1}}),
        _sse("message_stop", {"type": "message_stop"}),
    ])


class FakeAnthropic:
    """`with FakeAnthropic() as fake:` serves on `fake.url`; `fake.requests` holds each POSTed JSON body."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.got_message = threading.Event()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # quiet: the run prints its own summary
                pass

            def do_POST(self) -> None:  # noqa: N802 (the http.server spelling)
                length = int(self.headers.get("content-length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    body = {}
                path = self.path.split("?")[0]
                if path.endswith("/count_tokens"):
                    return self._json({"input_tokens": 1})
                owner.requests.append(body)
                model = str(body.get("model", "claude-fake"))
                if body.get("stream"):
                    payload = _stream(model)
                    self.send_response(200)
                    self.send_header("content-type", "text/event-stream")
                    self.send_header("content-length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                else:
                    reply = _message(model) | {"content": [{"type": "text", "text": REPLY_WORD}],
                                               "stop_reason": "end_turn"}
                    self._json(reply)
                owner.got_message.set()

            def do_GET(self) -> None:  # noqa: N802
                self._json({})

            def do_HEAD(self) -> None:  # noqa: N802
                self.send_response(200)
                self.end_headers()

            def _json(self, data: dict) -> None:
                payload = json.dumps(data).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> "FakeAnthropic":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
