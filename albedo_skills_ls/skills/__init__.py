"""The engine: everything about skills, as plain frozen values. No pygls, no lsprotocol.

Its subpackages are stages, each importing only the stages before it (tests/unit/test_import_layers.py):

1. `core`: the values, the bounds, the registry of codes, refusals, path containment
2. `document`: one `SKILL.md` read: text, frontmatter tree, body spans, references written, its own rules
3. `resources`: a skill folder's files, confined: `skills.resources` and `skills.read`
4. `catalog`: roots to candidates to validated skills to winners: `discover()` -> `Catalog`, and the session
5. `activation`: `commands.catalog`, `commands.invoke` and the model's `<available_skills>` block
6. `hosts`: which other agents load each skill, and why not
7. `security`: what a skill's text and bundled files would have the model or a script do
8. `language`: mentions, rename, workspace symbols, `/commands` in chat buffers
9. `authoring`: help while writing a `SKILL.md` (completion, hover, fixes, outline, selection, figures)
"""
