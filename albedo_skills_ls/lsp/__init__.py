"""The language server: translation of engine values to LSP, in three layers (see ARCHITECTURE.md).

- core, imports no feature: `server` (the `LanguageServer` subclass: sessions, settings, reloads,
  diagnostics delivery, watchers, start-up), `request` (what an answer reads, taken once per request),
  `client` (what the client can do, resolved once at `initialize`), `buffers` and `documents` (open buffers,
  their kind decided in one place, positions in engine units), `convert` (positions), `settings` (the
  `albedoSkills` settings), `pygls_internals` (every use of pygls's private names)
- features: the core's own methods, each module exposing `register(server)`: `lifecycle`
  (initialize/initialized, folders, configuration, watched files), `diagnostics` (document sync, pull
  diagnostics), `commands` (`workspace/executeCommand`); the editor features' answers (`completion`, `hover`,
  `actions`, `links`, `symbols`, `chat`, `find_references`, `rename`, `workspace_symbols`, `lens`,
  `inlay_hints`, `folding`, `selection_ranges`) and `dispatch`, which turns each entry of the table into the
  handler pygls calls
- assembly: `app` (`create_server()`: the core with every feature registered), `methods` (the table of the
  editor features' methods), `main` (the console script), `transport` (strict frame reading over stdio or
  TCP, exit codes), `redaction` (no contents in logs)
"""
