"""Stage 1, the vocabulary every later stage speaks: it takes nothing and gives the frozen values (`model`:
`Diagnostic`, `Skill`, `Catalog`, `CommandEntry`, `Range`), every bound named once (`limits`), the registry of
diagnostic codes (`codes`; `python -m albedo_skills_ls.generate` renders docs/diagnostics.md from it), the refusals the front
ends turn into errors (`errors`), path containment (`paths`) and the escaping of file names that are not UTF-8
(`undecodable`). Nothing here reads a file.
"""
