"""The engine: everything about skills, as plain frozen values. No pygls, no lsprotocol.

- `frontmatter`: bytes to text to a failsafe YAML tree with ranges
- `rules`: the single-document rules (`check_document`)
- `discovery`: roots, candidates, collisions, bounds, `discover()` -> `Catalog`
- `catalog`: `SkillsSession` (snapshot + reload) and `check_buffer` for live editing
- `resources`, `activation`: `skills.resources`, `skills.read`, `commands.catalog`, `commands.invoke`
- `prompt`: the catalog as the model's `<available_skills>` block (the CLI's `--format prompt`, `skills.prompt`)
- `references`: relative file references in a body (`reference-missing`, `reference-outside`, links)
- `slash`: `/commands` at message starts in chat buffers (`unknown-command`); `authoring/`: field docs,
  frontmatter completion, hover, quick fixes and the outline of a `SKILL.md`, one module each
- `codes`: the registry of diagnostic codes (docs/diagnostics.md is generated from it)
- `limits`: every bound, named once; `model`: the value types; `paths`: path containment; `errors`: refusals;
  `undecodable`: file-name bytes that were not UTF-8, shown as `\\xff` escapes
"""
