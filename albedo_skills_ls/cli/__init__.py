"""`albedo-skills`: the catalog and its diagnostics on the command line.

Layout (each fact in one place):

- `app.py`: `main()`, the entry point; turns what a verb returns or raises into an exit status.
- `options.py`: argument parsing: the verb table, the options every catalog-reading verb shares.
- `workspace.py`: which folders the verbs read, and discovery with the shared options.
- `verbs/`: one module per verb group (`check`, `catalog`, the activation verbs). Each has a
  `configure(parser)` per verb and a `run_<verb>(args) -> int`.
- `formats/`: the output formats, each apart: `text`, `json`, `sarif`, `github` (the prompt block is the
  engine's `skills/activation/prompt.py`, shared with the server's `skills.prompt` route).
- `output.py`: writing to the terminal: UTF-8 JSON, paths shown relative, control characters escaped.

Output is the engine's own values: paths as the engine reports them (shown relative to the current folder
in the human formats), positions converted from the engine's 0-based code points to 1-based.

Start-up is kept small: importing this package loads only the standard library's `argparse`, `os` and
`sys`; a verb's module, the engine, `json` and the SARIF helpers are imported when a run needs them.
Nothing here ever imports pygls or lsprotocol.
"""

from __future__ import annotations

from .app import main

__all__ = ["main"]
