"""Stage 8, skills as a language: it takes the catalog, the agents' verdicts and the texts that name skills,
and gives where a skill is named (`command_tokens`: where a `/command` stands alone; `mention_scan` in one
text, `mentions` across the workspace and its mirror links), the plan of a rename (`rename`), workspace
symbols (`workspace_symbols`) and `/commands` in chat buffers (`slash`). Plans only: the front ends apply the
edits.
"""
