"""Stage 9, help for writing a `SKILL.md`, one module per editor feature.

- `fields`: what each frontmatter field means, where the frontmatter is, the name a folder implies
- `completion`: frontmatter completion; `hover`: field documentation under the cursor
- `fixes`: quick fixes for the codes the registry marks fixable; `outline`: document symbols
- `folding`: folding ranges; `selection`: Expand Selection's ranges, from the word to the document
- `agent_figures`: the figures of the lens and the inlay hint on `name:` and `description:`, from the
  agents' report

The language server shows these; it decides none of them. Everything takes the document's text (an
editor buffer) and returns plain values with engine positions (0-based lines, code-point characters).
Each caller imports a name from the module that defines it (`from ..skills.authoring.fixes import
quick_fixes`): this package file defines nothing.
"""
