"""Every bound of the specification, named once.

Tests exercise each of them at the bound and one past it; nothing else in the code spells these numbers.
"""

# Discovery (docs/design.md#2-validation-rules)
MAX_CANDIDATES = 128  # skill folders examined across all five roots, in precedence order
MAX_DIAGNOSTICS = 64  # catalog diagnostics kept (limit diagnostics are extra and never dropped)
MAX_FRONTMATTER_BYTES = 64 * 1024  # UTF-8 bytes between the two `---` lines
MAX_SKILL_FILE_BYTES = 1024 * 1024  # bytes of one SKILL.md

# What the editor shows for one file: the most severe first, then one note saying how many more
MAX_FILE_DIAGNOSTICS = 200

# Field rules (the Agent Skills format)
MAX_NAME_CHARS = 64
MAX_DESCRIPTION_CHARS = 1024
MAX_COMPATIBILITY_CHARS = 500
MAX_BODY_LINES = 500
MAX_BODY_TOKENS = 5000
CHARS_PER_TOKEN = 4  # the token estimate: characters / 4

# skills.resources
MAX_RESOURCE_FILES = 512  # files listed
MAX_RESOURCE_ENTRIES = 2048  # directory entries traversed
MAX_RESOURCE_DEPTH = 16  # directory levels below the skill root

# `check PATH` on a folder that is no root nor workspace (catalog/skill_tree.py): the walk that finds every
# SKILL.md beneath it, as scanners do (a downloaded collection keeps its skills at skills/*/ or deeper)
MAX_SKILL_TREE_ENTRIES = 50_000  # directory entries read in one walk (a large collection holds a few thousand)
MAX_SKILL_TREE_DEPTH = 12  # folder levels below the folder named (collections nest skills 2 to 5 levels down)

# skills.read
DEFAULT_READ_LIMIT = 16 * 1024
MAX_READ_LIMIT = 64 * 1024
MAX_RESOURCE_BYTES = 16 * 1024 * 1024
MAX_ENCODING_VERDICTS = 256  # files whose encoding a session remembers, so paging reads only the page

# References (docs/design.md#7-what-real-skills-taught)
MAX_NEAR_MISS_ENTRIES = 256  # entries of one folder listed to find what a missing reference meant

# Explaining a skill folder without SKILL.md (docs/design.md#7-what-real-skills-taught, traps)
MAX_NESTED_SCAN_ENTRIES = 512  # directory entries read, in the folder and its subfolders, to find nested skills
MAX_NESTED_NAMED = 3  # nested skill folders named in the message ("and N more" after them)

# Other agents' verdicts (skills/hosts/): the walk that finds every SKILL.md under every agent's roots
MAX_HOST_WALK_DEPTH = 16  # folder levels below a root (OpenCode and Copilot CLI read 8 and more when run)
# The agents set no such bound (OpenCode and Copilot CLI walk every folder, and listed every skill their rules
# load in generated trees of 300 when run here): these cover a workspace and home of thousands of skills.
MAX_HOST_WALK_ENTRIES = 200_000  # directory entries read across all roots, in one walk
MAX_HOST_SKILL_FILES = 10_000  # files named SKILL.md (any letter case) judged per walk
# collections (mappings, sequences) nested in one frontmatter, for the agents' standard YAML parse: the C
# parser composes nodes recursively and overflows the stack (a crash, not an error) near 30,000 levels
MAX_HOST_YAML_NESTING = 1_000
MAX_PLUGIN_MANIFEST_BYTES = 64 * 1024  # a Codex `.codex-plugin/plugin.json` read for its name; larger: not read

# The security reading (skills/security/): what it reads of a skill, and how far each pattern looks
MAX_SECURITY_FILE_BYTES = 1024 * 1024  # bytes of one file read; the rest is reported as not read
MAX_SECURITY_TOTAL_BYTES = 16 * 1024 * 1024  # bytes read across one skill; later files are reported as not read
# characters of a skill's files searched together by the security prefilter (security/text.py): the
# texts joined are a copy, so no more than this is joined at once; a usual skill is far below it
MAX_SECURITY_SEARCHED_TOGETHER_CHARS = 1024 * 1024
SECURITY_WINDOW_CHARS = 512  # characters after a trigger word a pattern examines (keeps every scan linear)
SECURITY_FOLLOW_LINES = 20  # lines after a download in which running the downloaded file counts as one step
MIN_ENCODED_CHARS = 40  # shortest base64 or hex run decoded
MAX_DECODED_BYTES = 64 * 1024  # bytes of one encoded run decoded (its start; never run)
MAX_SECURITY_FINDINGS_PER_FILE = 200  # findings kept per file and code family (then one note says how many more)
# a bundled Python script read as a program (security/python_flow.py): characters parsed (Python's parser takes
# about 1.4 s a MiB here; the largest hand-written script of seven public collections is 147 KB), syntax nodes
# visited, seconds per file
MAX_PYTHON_PARSE_CHARS = 256 * 1024
MAX_PYTHON_AST_NODES = 2_000_000  # syntax nodes visited while following values (a 1 MiB script holds ~300,000)
MAX_PYTHON_FLOW_SECONDS = 2.0  # per file; past it the flows found so far are kept and a note says so
# ZIP-based files opened (security/archives.py: Office documents, .zip, .jar), in memory, whole files only
MAX_ARCHIVE_PARTS = 512  # parts of one archive read (an Office document holds a few dozen)
MAX_ARCHIVE_PART_BYTES = 1024 * 1024  # bytes one part unpacks to (as MAX_SECURITY_FILE_BYTES for a file)
MAX_ARCHIVE_TOTAL_BYTES = 8 * 1024 * 1024  # bytes one archive unpacks to, nested archives included
MAX_ARCHIVE_RATIO = 200  # unpacked to packed size of one part (text packs 5 to 20 to one; a ZIP bomb, 1,000+)
MAX_ARCHIVE_DEPTH = 3  # archives nested in one another that are opened (the file itself is 1)
# shell scripts and shell blocks read as programs (security/shell_flow.py, tree-sitter-bash: a C parser, linear)
MAX_SHELL_PARSE_CHARS = 512 * 1024  # characters of one script or block parsed (scripts run to a few KB)
MAX_SHELL_SYNTAX_NODES = 2_000_000  # syntax nodes walked per script or block (1 MiB of shell holds ~500,000)
# JavaScript and TypeScript scripts read as programs (security/js_script.py, tree-sitter grammars: C parsers,
# linear): characters parsed per script (scripts run to a few KB; a bundled, minified library past it is not
# parsed), syntax nodes walked per script over every pass
MAX_JS_PARSE_CHARS = 512 * 1024
MAX_JS_SYNTAX_NODES = 2_000_000
# prose read as sentences (security/sentences.py): an instruction's verb, object and destination stand at the
# start of its sentence; a paragraph with no full stop is read to this many characters, not further
MAX_SENTENCE_CHARS = 1_000
MAX_BASELINE_BYTES = 16 * 1024 * 1024  # a `check --baseline` file read (a baseline of every finding is far smaller)

# Mentions of a skill (skills/language/mentions.py): the walk of the workspace for agent files and chat files
MAX_MENTION_WALK_ENTRIES = 20_000  # directory entries read in one walk
MAX_MENTION_WALK_DEPTH = 12  # folder levels below the workspace folder

# `command-unknown` (skills/language/unknown_commands.py): how close a `/word` must be to a command to be taken
# for a mistyped one. One edit (a letter added, dropped, changed, or two neighbours swapped): `/demoo`, `/dmeo`.
# The near-miss index holds every command with up to this many letters deleted, so its size and each lookup
# grow as a name's length to this power: 1 keeps both linear.
COMMAND_TYPO_EDITS = 1
# a command shorter than this is never suggested: one edit away from a two- or three-letter name lies half the
# language (`/qa` is one letter from `/qb`, `/pdf` from `/pd`), and a near miss there would rarely be a typo
MIN_TYPO_COMMAND_CHARS = 4
