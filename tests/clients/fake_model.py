"""A fake OpenAI-compatible model on 127.0.0.1 that records what each chat plugin sent.

The chat tests point a real plugin (CodeCompanion, gp.nvim, gptel) at `FakeModel.base_url` and then assert on
`requests`: the JSON bodies as the model received them, in order. It answers `POST .../chat/completions` with
one fixed reply, as server-sent events when the body asks for `"stream": true` and as one JSON object
otherwise, and `GET .../models` with one model, so plugins that list models first work too. Any path prefix
is accepted (`/v1/chat/completions`, `/chat/completions`), since plugins join the base URL differently.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODEL_ID = "fake-model"
# Only a hang guard for `wait_for`: a test that waits this long has failed, whatever the machine's speed.
WAIT_GUARD_SECONDS = 60
MAX_BODY_BYTES = 16 * 1024 * 1024  # a request past this is refused: no test sends one


class FakeModel:
    def __init__(self, reply: str = "Done.") -> None:
        self.reply = reply
        self.requests: list[dict] = []
        self._arrived = threading.Condition()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-model", daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> FakeModel:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def wait_for(self, count: int) -> list[dict]:
        """Block until `count` requests arrived; return them. Fails with what did arrive after the guard."""
        with self._arrived:
            if not self._arrived.wait_for(lambda: len(self.requests) >= count, WAIT_GUARD_SECONDS):
                raise AssertionError(f"the fake model got {len(self.requests)} of {count} requests: {self.requests}")
            return list(self.requests)

    def _record(self, body: dict) -> None:
        with self._arrived:
            self.requests.append(body)
            self._arrived.notify_all()


def _handler_for(model: FakeModel) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:  # the test output stays the test's
            pass

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                self._json({"object": "list", "data": [{"id": MODEL_ID, "object": "model", "owned_by": "test"}]})
            else:
                self._json({"error": {"message": f"no route {self.path}"}}, status=404)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY_BYTES:
                self._json({"error": {"message": "request too large"}}, status=413)
                return
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                self._json({"error": {"message": "the body is not JSON"}}, status=400)
                return
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._json({"error": {"message": f"no route {self.path}"}}, status=404)
                return
            model._record(body)
            if body.get("stream"):
                self._stream(body)
            else:
                self._json(_completion(body, model.reply))

        def _json(self, payload: dict, status: int = 200) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _stream(self, body: dict) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()
            chunks = [
                {"role": "assistant", "content": ""},
                {"content": model.reply},
            ]
            for delta in chunks:
                event = {**_envelope(body, "chat.completion.chunk"),
                         "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
                self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
            last = {**_envelope(body, "chat.completion.chunk"),
                    "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
            self.wfile.write(f"data: {json.dumps(last)}\n\ndata: [DONE]\n\n".encode())
            self.wfile.flush()
            self.close_connection = True

    return Handler


def _envelope(body: dict, kind: str) -> dict:
    return {"id": "fake-1", "object": kind, "created": 0, "model": body.get("model") or MODEL_ID}


def _completion(body: dict, reply: str) -> dict:
    return {
        **_envelope(body, "chat.completion"),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
