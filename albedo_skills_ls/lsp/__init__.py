"""The language server: translation of engine values to LSP, one module per feature group.

- `server`: the `LanguageServer` subclass (sessions, settings, reloads, diagnostics delivery)
- `lifecycle`: initialize/initialized, folders, configuration, watched files
- `diagnostics`: document sync, live checks, pull diagnostics
- `commands`: `workspace/executeCommand` routes
- `completion`, `hover`, `actions`, `links`, `symbols`: editor features
- `chat`: chat buffers (slash completion, hover, definition, `unknown-command`); `documents`: open buffers by
  URI, their kind (SKILL.md or chat) and positions in engine units
- `convert`: URIs and positions; `settings`: the `albedoSkills` settings; `main`: the console script
"""
