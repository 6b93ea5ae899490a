"""Stage 5, what the model receives: it takes one `Catalog` snapshot and gives `commands.catalog`,
`commands.invoke` and the JSON-delimited activation of a `/skill` turn (`commands`), and the catalog as the
model's `<available_skills>` block (`prompt`). Nothing here executes, imports, fetches or writes anything.
"""
