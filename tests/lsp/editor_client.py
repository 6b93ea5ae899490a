"""A scripted editor over the real server's stdio, for the sequence tests (tests/lsp/test_sequences.py).

It speaks raw JSON-RPC through `hostile.rpc.RawServer` and keeps what an editor keeps: the last
`publishDiagnostics` of every URI (diagnostics and version) and every `albedoSkills/catalogChanged`.
Each action returns once the server has answered it by an event, never after a sleep:

- `open` and `close` publish from the notification's own handler, so the round trip of the next request
  (`catalog`) comes back after them;
- `edit` waits for the publish carrying the new version (versions never repeat within a client);
- `files_changed` and `save` wait for the `catalogChanged` of the debounced reload they cause;
- `reload` is a request: its answer comes after the diagnostics it sent.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Callable

from pygls.uris import from_fs_path

from hostile.rpc import RawServer, frame

CATALOG_CHANGED = "albedoSkills/catalogChanged"
PUBLISH = "textDocument/publishDiagnostics"
CHANGED = 2  # FileChangeType.Changed


def uri(path: str | Path) -> str:
    return from_fs_path(str(path))


class EditorClient:
    def __init__(self, raw: RawServer, settings: dict[str, Any]) -> None:
        self.raw = raw
        self.settings = settings
        self.published: dict[str, dict[str, Any]] = {}  # uri -> the last publishDiagnostics params
        self.announcements: list[dict[str, Any]] = []
        self.buffers: dict[str, tuple[str, int]] = {}  # path -> (text, version) of open buffers
        self._version = 0

    @classmethod
    async def start(cls, workspace: Path, home: Path) -> EditorClient:
        settings = {"home": str(home)}
        client = cls(await RawServer.start(str(home)), settings)
        capabilities = {
            "workspace": {"configuration": True, "workspaceFolders": True},
            "textDocument": {"publishDiagnostics": {"relatedInformation": True, "versionSupport": True}},
        }
        answer = await client.request(
            "initialize",
            {
                "processId": None,
                "rootUri": uri(workspace),
                "workspaceFolders": [{"uri": uri(workspace), "name": workspace.name}],
                "capabilities": capabilities,
                "initializationOptions": {"albedoSkills": settings},
            },
        )
        assert "result" in answer, answer
        mark = len(client.announcements)
        await client.raw.send("initialized", {}, request=False)
        await client.until(lambda: len(client.announcements) > mark)
        return client

    # --- the protocol ------------------------------------------------------------------------------------

    async def _take(self) -> dict[str, Any]:
        """The next message; the server's own requests are answered and its notifications recorded."""
        while True:
            message = await self.raw.read()
            if "method" in message and "id" in message:
                result: Any = None
                if message["method"] == "workspace/configuration":
                    result = [{"albedoSkills": self.settings}.get(item.get("section"), self.settings)
                              for item in message["params"]["items"]]
                await self.raw.write(frame({"jsonrpc": "2.0", "id": message["id"], "result": result}))
                continue
            if message.get("method") == PUBLISH:
                self.published[message["params"]["uri"]] = message["params"]
            elif message.get("method") == CATALOG_CHANGED:
                self.announcements.append(message["params"])
            return message

    async def until(self, done: Callable[[], bool]) -> None:
        while not done():
            await self._take()

    async def request(self, method: str, params: Any = None) -> dict[str, Any]:
        msg_id = await self.raw.send(method, params)
        while True:
            message = await self._take()
            if message.get("id") == msg_id and "method" not in message:
                return message

    async def notify(self, method: str, params: Any) -> None:
        await self.raw.send(method, params, request=False)

    async def command(self, name: str, *arguments: Any) -> Any:
        answer = await self.request("workspace/executeCommand", {"command": name, "arguments": list(arguments)})
        assert "result" in answer, answer
        return answer["result"]

    # --- editor actions ----------------------------------------------------------------------------------

    def _next_version(self) -> int:
        self._version += 1
        return self._version

    async def open(self, path: Path, text: str) -> None:
        version = self._next_version()
        self.buffers[str(path)] = (text, version)
        await self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri(path), "languageId": "markdown", "version": version, "text": text}},
        )

    async def edit(self, path: Path, text: str) -> None:
        """Replace the whole buffer (unsaved) and wait for the live check's publish of that version."""
        version = self._next_version()
        self.buffers[str(path)] = (text, version)
        await self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri(path), "version": version}, "contentChanges": [{"text": text}]},
        )
        await self.until(lambda: self.published.get(uri(path), {}).get("version") == version)

    async def save(self, path: Path) -> None:
        """Write the buffer to disk, as an editor saves, and wait for the reload the save causes."""
        text, _version = self.buffers[str(path)]
        path.write_text(text, encoding="utf-8")
        mark = len(self.announcements)
        await self.notify("textDocument/didSave", {"textDocument": {"uri": uri(path)}})
        await self.until(lambda: len(self.announcements) > mark)

    async def close(self, path: Path) -> None:
        del self.buffers[str(path)]
        await self.notify("textDocument/didClose", {"textDocument": {"uri": uri(path)}})

    async def files_changed(self, *paths: Path) -> None:
        """The watcher's event for these paths; returns after the reload it causes was announced."""
        mark = len(self.announcements)
        changes = [{"uri": uri(path), "type": CHANGED} for path in paths]
        await self.notify("workspace/didChangeWatchedFiles", {"changes": changes})
        await self.until(lambda: len(self.announcements) > mark)

    async def reload(self) -> dict[str, Any]:
        return await self.command("skills.reload")

    async def catalog(self) -> list[dict[str, Any]]:
        return await self.command("commands.catalog")

    async def stop(self) -> None:
        try:
            await self.request("shutdown")
            await self.notify("exit", None)
            await self.raw.exit_code()
        finally:
            await self.raw.kill()
