"""Stage 3, a skill folder's files, confined: it takes a skill folder and a path a caller asked for, and gives
`skills.resources` (`listing`) and `skills.read` (`paging`), after the checks both share (`folder`). Every file
is opened beneath the folder without following links (`confinement`); traversal, absolute paths and escapes
are refused with a message that says what to send instead. Nothing here is run, fetched or written.
"""
