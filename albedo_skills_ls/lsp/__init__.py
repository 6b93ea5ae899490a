"""The language server: translation of engine values to LSP, in three layers (see ARCHITECTURE.md).

- core, imports no feature: `server` (the `LanguageServer` subclass: sessions, settings, reloads,
  diagnostics delivery, watchers, start-up), `client` (what the client can do, resolved once at
  `initialize`), `documents` (open buffers by URI, their kind decided in one place, positions in engine
  units), `convert` (URIs and positions), `settings` (the `albedoSkills` settings), `protocol` (pygls's
  JSON-RPC protocol with the lifecycle and bookkeeping fixes)
- features, each exposing `register(server)`: `lifecycle` (initialize/initialized, folders, configuration,
  watched files), `diagnostics` (document sync, pull diagnostics), `commands` (`workspace/executeCommand`),
  `completion`, `hover`, `actions`, `links`, `symbols`; `chat` holds the chat-buffer side of completion,
  hover and definition
- assembly: `app` (`create_server()`: the core with every feature registered), `main` (the console script),
  `transport` (strict frame reading over stdio or TCP, exit codes), `redaction` (no contents in logs)
"""
