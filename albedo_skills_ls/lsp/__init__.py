"""The language server: translation of engine values to LSP, one module per feature group.

- `server`: the `LanguageServer` subclass (sessions, settings, reloads, diagnostics delivery)
- `lifecycle`: initialize/initialized, folders, configuration, watched files
- `diagnostics`: document sync, live checks, pull diagnostics
- `commands`: `workspace/executeCommand` routes
- `completion`, `hover`, `actions`, `links`, `symbols`: editor features
- `convert`: URIs and positions; `settings`: the `albedoSkills` settings; `main`: the console script
"""
