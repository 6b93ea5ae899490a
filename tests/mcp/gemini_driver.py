"""Run inside a loopback-only network namespace by test_agents.py: a fake Gemini API on 127.0.0.1 that
answers every turn with one word and records each request, then `gemini -p PROMPT` with the settings the
test wrote (the MCP server configured as docs/mcp.md says). Prints the recorded requests as JSON.

    python gemini_driver.py GEMINI HOME WORKSPACE PROMPT
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "scripts"))

from hosts_conformance import sandbox  # noqa: E402

AGENT_TIMEOUT_SECONDS = 120  # a hang guard: one turn takes seconds
REPLY = {"candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP", "index": 0}],
         "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2}}


def main(gemini: str, home: str, workspace: str, prompt: str) -> int:
    sandbox.bring_loopback_up()
    assert sandbox.network_is_isolated()
    requests: list[dict] = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:  # noqa: N802 (the http.server spelling)
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            requests.append({"path": self.path, "body": json.loads(body or b"{}")})
            streamed = "alt=sse" in self.path or "stream" in self.path
            data = (f"data: {json.dumps(REPLY)}\r\n\r\n" if streamed else json.dumps(REPLY)).encode()
            self.send_response(200)
            self.send_header("content-type", "text/event-stream" if streamed else "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = sandbox.agent_env(home, {
        "GEMINI_API_KEY": "not-a-key", "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{server.server_port}",
        "GEMINI_CLI_TRUST_WORKSPACE": "true", "GEMINI_CLI_NO_RELAUNCH": "true"})
    done = subprocess.run([gemini, "-p", prompt], cwd=workspace, env=env, capture_output=True, text=True,
                          timeout=AGENT_TIMEOUT_SECONDS, stdin=subprocess.DEVNULL)
    server.shutdown()
    print(json.dumps({"returncode": done.returncode, "stderr": done.stderr[-2000:], "requests": requests}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:5]))
