"""`albedo-skills mcp`: the catalog served to MCP hosts, on the official MCP Python SDK's low-level server.

The methods (docs/mcp.md says what a host sees of each):
- the Skills extension (`io.modelcontextprotocol/skills`): `skills/list` (paginated), `skills/get` and the
  optional `resources/directory/read`, added as request handlers (the SDK has no Skills methods of its own);
- `resources/list` (each offered skill's `SKILL.md`) and `resources/read` on `skill://` URIs;
- `prompts/list` and `prompts/get`: one prompt per command, whose turn is Albedo's activation;
- `tools/list` and `tools/call`: `activate_skill` (the model-side activation) and `read_skill_file` (one
  bounded page), both read-only.

Live: a watcher reloads the catalog every WATCH_SECONDS (longer in proportion past WATCH_FILES_PER_LOOK files);
when what is offered changed, the new `Offer` replaces the old one in one assignment and every connected client
is told (`notifications/prompts/list_changed` and `notifications/resources/list_changed` on a connection opened
with the initialize handshake; the same events on `subscriptions/listen` streams for clients of the 2026-07-28
protocol).
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, PromptsListChanged, ResourcesListChanged
from mcp.shared.exceptions import MCPError

from .. import __version__
from ..skills.activation import commands as activation
from ..skills.catalog.session import SkillsSession
from ..skills.core.errors import InvalidArguments, Refused, SkillsError
from ..skills.core.limits import DEFAULT_READ_LIMIT, MAX_READ_LIMIT
from ..skills.resources.paging import read_resource
from .offer import (
    EXTENSION_ID, WORD_SPLITTING_CLIENTS, Offer, build_offer, directory_children, fingerprint, prompt_turn, prompts,
    read_file,
)

WATCH_SECONDS = 1.0  # how often the watcher looks at the roots; a change is served within about this long
# A look lists each served skill's folder and stats every file in it (5–15 µs a file here: 128 skills of 512
# files, the catalog's and the listing's bounds, took 0.33 s a look quiet, 0.5–1 s loaded). Past this many files
# the watcher waits longer in proportion, so a large catalog costs it no more of a core than this many files do
# each second (benchmarks/mcp.py measures both).
WATCH_FILES_PER_LOOK = 8192
SKILLS_PAGE = 50  # skills per `skills/list` page
DIRECTORY_PAGE = 100  # children per `resources/directory/read` page (a skill holds at most 512 files)
# The extension's listing and entry results are cacheable results: like the SDK's own listings and reads, none
# may be reused (the watcher may swap the catalog at any moment, and says so with list_changed)
NOT_CACHED = {"ttlMs": 0, "cacheScope": "private"}
SERVER_NAME = "albedo-skills"
HTTP_PATH = "/mcp"  # the streamable HTTP endpoint


class SkillsListParams(types.PaginatedRequestParams):
    pass


class SkillsGetParams(types.RequestParams):
    uri: str


class DirectoryReadParams(types.PaginatedRequestParams):
    uri: str


def watch_seconds(files: int) -> float:
    """The wait before the next look at the disk, after a look that stat'ed `files` files."""
    return WATCH_SECONDS * max(1.0, files / WATCH_FILES_PER_LOOK)


def _error(exc: SkillsError) -> MCPError:
    """An engine refusal as a JSON-RPC error. Each one is about what the request named (an unknown skill or
    prompt, a path outside the skill, a file not in its manifest or changed since), which the protocol and
    the Skills extension answer with INVALID_PARAMS (-32602); the message names the skill and what to do."""
    return MCPError(types.INVALID_PARAMS, str(exc))


def _page(items: list[Any], cursor: str | None, size: int) -> tuple[list[Any], str | None]:
    """One page of `items` from `cursor` (an offset this server gave, as text), and the next page's cursor."""
    start = 0
    if cursor is not None:
        if not (cursor.isascii() and cursor.isdigit()) or int(cursor) > len(items):
            raise MCPError(types.INVALID_PARAMS, f"cursor {cursor!r} is not one this server gave; list from the start")
        start = int(cursor)
    end = start + size
    return items[start:end], str(end) if end < len(items) else None


class SkillsFace:
    """The MCP face of one `SkillsSession`: the current `Offer`, swapped whole on a change, and the
    connections to tell."""

    def __init__(self, session: SkillsSession, log: Callable[[str], None]) -> None:
        self.session = session
        self.log = log
        self.offer: Offer = build_offer(session.snapshot)
        self.seen = fingerprint(self.offer.catalog)
        # the session of each client's `notifications/initialized`, held (a request's session object is not
        # kept by the SDK once the request is answered) until telling it fails
        self._connections: set[Any] = set()
        self.bus = InMemorySubscriptionBus()
        self.report_left_out()

    def report_left_out(self) -> None:
        for left in self.offer.left_out:
            self.log(f"skill `{left.name}` ({left.path}) is not served: {left.reason}")

    def refresh(self) -> bool:
        """Discover again; when what is offered changed, build the new offer and swap it in. True if swapped."""
        self.session.reload()
        catalog = self.session.snapshot
        seen = fingerprint(catalog)
        if seen.mark == self.seen.mark:
            return False
        self.offer, self.seen = build_offer(catalog), seen  # readers hold the old offer or the new, whole
        self.report_left_out()
        return True

    async def announce(self) -> None:
        for connection in list(self._connections):
            try:
                await connection.send_prompt_list_changed()
                await connection.send_resource_list_changed()
            except Exception:  # a client that went away: nothing to tell
                self._connections.discard(connection)
        await self.bus.publish(PromptsListChanged())
        await self.bus.publish(ResourcesListChanged())

    async def watch(self) -> None:
        while True:
            await anyio.sleep(watch_seconds(self.seen.files))
            try:
                changed = await anyio.to_thread.run_sync(self.refresh)
            except Exception as exc:  # a root that vanished mid-walk, a full disk: serve the last offer, try again
                self.log(f"could not read the skills again ({type(exc).__name__}: {exc}); still serving the last catalog")
                continue
            if changed:
                await self.announce()

    # --- handlers (each reads `self.offer` once: one request, one snapshot). The protocol's own methods return
    # the SDK's typed results: on the 2026-07-28 protocol a result must carry `resultType` (and a listing or a
    # read `ttlMs` and `cacheScope`), which the SDK fills only in its typed results; a plain dict fails its
    # check as "Handler returned an invalid result" (Claude Code 2.1.332 speaks that protocol and lost every
    # prompt to it). `skills/list` and `skills/get` are the extension's, outside that check.

    async def tell_left_out(self, ctx: Any, offer: Offer, request_id: Any = None) -> None:
        """Why each left-out skill is not served, as MCP log messages (`warning`). After `initialize` they ride
        the connection's channel, which an HTTP client may not have opened yet; with the first page of
        `skills/list` they ride that request's own response stream, which always reaches the host."""
        for left in offer.left_out:
            await ctx.session.send_log_message(level="warning", data=f"skill `{left.name}` is not served: {left.reason}",
                                               logger=SERVER_NAME, related_request_id=request_id)

    async def on_initialized(self, ctx: Any, params: Any) -> None:
        self._connections.add(ctx.session)
        await self.tell_left_out(ctx, self.offer)

    async def skills_list(self, ctx: Any, params: SkillsListParams) -> dict[str, Any]:
        offer = self.offer
        entries = [offered.entry for offered in offer.offered.values()]
        if params.cursor is None:
            await self.tell_left_out(ctx, offer, ctx.request_id)
        skills, next_cursor = _page(entries, params.cursor, SKILLS_PAGE)
        return {"skills": skills, **NOT_CACHED} | ({"nextCursor": next_cursor} if next_cursor else {})

    async def skills_get(self, ctx: Any, params: SkillsGetParams) -> dict[str, Any]:
        offer = self.offer
        for offered in offer.offered.values():
            if offered.entry["uri"] == params.uri:
                return {"skill": offered.entry, **NOT_CACHED}
        raise MCPError(types.INVALID_PARAMS, f"{params.uri!r} is the SKILL.md of no skill served here; list them with skills/list")

    async def list_resources(self, ctx: Any, params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[
            types.Resource(uri=o.entry["uri"], name=o.skill.name, description=o.skill.description, mime_type="text/markdown")
            for o in self.offer.offered.values()
        ])

    async def read_resource(self, ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        try:
            return types.ReadResourceResult.model_validate({"contents": [read_file(self.offer, str(params.uri))]})
        except SkillsError as exc:
            raise _error(exc) from None

    async def read_directory(self, ctx: Any, params: DirectoryReadParams) -> dict[str, Any]:
        try:
            children = directory_children(self.offer, params.uri)
        except SkillsError as exc:
            raise _error(exc) from None
        resources, next_cursor = _page(children, params.cursor, DIRECTORY_PAGE)
        return {"resources": resources} | ({"nextCursor": next_cursor} if next_cursor else {})

    async def list_prompts(self, ctx: Any, params: Any) -> types.ListPromptsResult:
        client = ctx.session.client_params  # the handshake's, or the 2026-07-28 request's `_meta` clientInfo
        by_word = client is not None and client.client_info.name in WORD_SPLITTING_CLIENTS
        return types.ListPromptsResult.model_validate({"prompts": prompts(self.offer, by_word)})

    async def get_prompt(self, ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        try:
            return types.GetPromptResult.model_validate(prompt_turn(self.offer, params.name, params.arguments))
        except SkillsError as exc:
            raise _error(exc) from None

    async def list_tools(self, ctx: Any, params: Any) -> types.ListToolsResult:
        read_only = types.ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                                          open_world_hint=False)
        return types.ListToolsResult(tools=[
            types.Tool(
                name="activate_skill",
                description="Activate a skill of this catalog: returns its name, description, source, the arguments "
                "and its instructions, as Albedo gives them to the model. Runs nothing.",
                input_schema={
                    "type": "object",
                    "properties": {
                        "command": {"type": "string", "description": "the skill's slash command (/demo) or its name"},
                        "arguments": {"type": "string", "description": "the text after the command", "default": ""},
                    },
                    "required": ["command"],
                },
                annotations=read_only,
            ),
            types.Tool(
                name="read_skill_file",
                description="Read one page of a file of a skill (its SKILL.md or a file beneath its folder). Text "
                f"comes as UTF-8, anything else as base64; at most {MAX_READ_LIMIT} bytes a page.",
                input_schema={
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "description": "the skill's name"},
                        "resource": {"type": "string", "description": "a path relative to the skill's folder",
                                     "default": "SKILL.md"},
                        "offset": {"type": "integer", "minimum": 0, "default": 0},
                        "limit": {"type": "integer", "minimum": 0, "default": DEFAULT_READ_LIMIT},
                    },
                    "required": ["name"],
                },
                annotations=read_only,
            ),
        ])

    async def call_tool(self, ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        arguments = params.arguments or {}
        offer = self.offer
        try:
            if params.name == "activate_skill":
                command = arguments.get("command")
                target = activation.resolve(offer.catalog, command)
                if not isinstance(target, str) and target.name not in offer.offered:
                    raise Refused(f"skill `{target.name}` is not served here (the server's log says why)")
                result = activation.invoke(offer.catalog, command, arguments.get("arguments", ""), "model")
            elif params.name == "read_skill_file":
                name = arguments.get("name")
                offered = offer.offered.get(name) if isinstance(name, str) else None
                if offered is None:
                    raise InvalidArguments(f"no skill {name!r} is served here; its name is one of prompts/list's")
                result = read_resource(
                    name, offered.skill.folder, arguments.get("resource", "SKILL.md"), arguments.get("offset", 0),
                    arguments.get("limit", DEFAULT_READ_LIMIT), discovery_root=offered.skill.root,
                    verdicts=self.session.encoding_verdicts,
                )
            else:
                raise MCPError(types.INVALID_PARAMS, f"no tool {params.name!r}; list them with tools/list")
        except SkillsError as exc:  # a tool's failure is the model's to read, not a protocol error
            return types.CallToolResult(content=[types.TextContent(text=str(exc))], is_error=True)
        return types.CallToolResult(content=[types.TextContent(text=json.dumps(result, ensure_ascii=False))],
                                    structured_content=result)


class _ListChangingServer(Server[Any]):
    """The low-level server, declaring `listChanged` for prompts and resources on every transport (the HTTP
    session manager asks for the initialization options itself, without arguments)."""

    def create_initialization_options(self, notification_options=None, experimental_capabilities=None,  # type: ignore[no-untyped-def, override]
                                      extensions=None):
        announced = notification_options or NotificationOptions(prompts_changed=True, resources_changed=True)
        return super().create_initialization_options(announced, experimental_capabilities, extensions)


def build_server(face: SkillsFace) -> Server[Any]:
    server: Server[Any] = _ListChangingServer(
        SERVER_NAME,
        version=__version__,
        instructions="Albedo's validated Agent Skills: each skill is a prompt named as its slash command, and its "
        "files are skill:// resources (the Skills extension's skills/list and skills/get give their manifests).",
        on_list_resources=face.list_resources,
        on_read_resource=face.read_resource,
        on_list_prompts=face.list_prompts,
        on_get_prompt=face.get_prompt,
        on_list_tools=face.list_tools,
        on_call_tool=face.call_tool,
        on_subscriptions_listen=ListenHandler(face.bus),
    )
    # advertised in `capabilities.extensions` (server/discover, initialize); `directoryRead`: the extension's
    # optional `resources/directory/read` is served
    server.extensions = {EXTENSION_ID: {"directoryRead": True}}
    server.add_request_handler("skills/list", SkillsListParams, face.skills_list)
    server.add_request_handler("skills/get", SkillsGetParams, face.skills_get)
    server.add_request_handler("resources/directory/read", DirectoryReadParams, face.read_directory)
    server.add_notification_handler("notifications/initialized", types.NotificationParams, face.on_initialized)
    return server


def serve_stdio(session: SkillsSession) -> None:
    """MCP on stdin and stdout until the host closes stdin."""
    from mcp.server.stdio import stdio_server

    face = SkillsFace(session, _stderr)
    server = build_server(face)

    async def main() -> None:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(face.watch)
            async with stdio_server() as (read_stream, write_stream):
                await server.run(read_stream, write_stream, server.create_initialization_options())
            tasks.cancel_scope.cancel()  # the client closed stdin: stop watching and end

    anyio.run(main)


def serve_http(session: SkillsSession, host: str, port: int) -> None:
    """The streamable HTTP transport at http://HOST:PORT/mcp. On a loopback host the SDK refuses requests
    whose Host or Origin header names another (DNS rebinding)."""
    import uvicorn

    face = SkillsFace(session, _stderr)
    app = build_server(face).streamable_http_app(host=host, streamable_http_path=HTTP_PATH)

    async def main() -> None:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(face.watch)
            await uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning")).serve()
            tasks.cancel_scope.cancel()  # stopped (Ctrl-C, SIGTERM): stop watching and end

    _stderr(f"serving http://{host if ':' not in host else f'[{host}]'}:{port}{HTTP_PATH}")
    anyio.run(main)


def _stderr(message: str) -> None:
    print(f"{SERVER_NAME} mcp: {message}", file=sys.stderr, flush=True)
