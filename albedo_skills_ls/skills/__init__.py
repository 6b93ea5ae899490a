"""The engine: everything about skills, as plain frozen values. No pygls, no lsprotocol.

- `frontmatter`: bytes to text to a failsafe YAML tree with ranges
- `rules`: the single-document rules (`check_document`)
- `discovery`: roots, candidates, collisions, bounds, `discover()` -> `Catalog`
- `catalog`: `SkillsSession` (snapshot + reload) and `check_buffer` for live editing
- `resources`, `activation`: `skills.resources`, `skills.read`, `commands.catalog`, `commands.invoke`
- `limits`: every bound, named once; `model`: the value types; `errors`: refusals
"""
