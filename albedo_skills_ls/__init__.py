"""Albedo's Agent Skills catalog as a language server and a command line.

`albedo_skills_ls.skills` is the engine (pure Python, no LSP imports); `albedo_skills_ls.lsp` is the
language server; `albedo_skills_ls.cli` is the `albedo-skills` command.
"""

__version__ = "0.1.0"
