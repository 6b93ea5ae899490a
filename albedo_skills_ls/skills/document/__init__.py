"""Stage 2, one `SKILL.md` read: it takes a file's bytes (or an editor buffer's text) and gives its text, its
frontmatter as a failsafe YAML tree with exact ranges (`frontmatter`, `fastyaml` for the plain shapes,
`yaml_events` and `yamltree` for the rest, `yaml_advice` for what a YAML error means), the spans of its
Markdown body (`markdown_spans`), the file references written in it (`reference_scan`), and the diagnostics of
the rules that need that document alone (`rules.check_document`). `skill_file` reads the file itself, bounded.
Nothing here looks at another file.
"""
