"""Stage 4, the catalog: it takes the roots (a workspace and a home folder) and gives one immutable `Catalog`.
`candidates` finds the skill folders under the five roots, `discovery` reads and validates each (the document
stage) and checks its file references on disk (`references`), `winners` decides which skill wins a name and
which command it answers to, and `session` holds the snapshot a reload swaps in one step, with `check_buffer`
for an editor's unsaved text.
"""
