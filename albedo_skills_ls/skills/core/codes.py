"""The registry of diagnostic codes: every code the engine can emit, once, with what a reader needs to know.

Rules emit entries of this registry (`NAME_MISMATCH.at(path, message, range)`), never bare strings, so a code
cannot be emitted without being described. Everything else about a code is derived from here: the command
line's SARIF rule metadata, the quick-fix set (`FIXABLE`), and docs/diagnostics.md, which
`python -m albedo_skills_ls.generate` writes (and a test fails when the committed page differs).

The security codes are registered by their own module, security_codes.py, when it is imported (by every module
that emits one, and by the generator after this one's, so the docs list them last).

Adding a code: add an entry below (in the order the docs should list it), emit it from its rule module,
write a test that makes the engine emit it, and run `python -m albedo_skills_ls.generate`. tests/unit/test_codes.py
fails if any of the four is missing.
"""

from __future__ import annotations

from typing import NamedTuple

from .model import ERROR, FILE_START, INFORMATION, WARNING, Diagnostic, Range, Related, Severity

DOCS_PATH = "docs/diagnostics.md"


class Code(NamedTuple):
    """One diagnostic code and its documentation."""

    id: str
    severity: Severity  # the severity in the catalog and the editor; the resource listing reports its own
    summary: str  # one sentence: SARIF's shortDescription
    when: str  # exactly when it fires (Markdown): the docs table
    help: str  # what to do about it (Markdown)
    fixable: bool = False  # an editor quick fix exists (skills/authoring/fixes.py)
    # "skill" (the Agent Skills format, discovery) or "security" (what the skill would have the model or a
    # script do: skills/security/); formats and settings select codes by it
    category: str = "skill"
    # GitHub code scanning's 0.0-10.0 score (a string, as SARIF's `security-severity` property), security only
    security_severity: str | None = None

    def at(
        self,
        path: str,
        message: str,
        where: Range = FILE_START,
        related: tuple[Related, ...] = (),
        severity: Severity | None = None,
    ) -> Diagnostic:
        """A finding of this code. `severity` overrides the registered one where a context reports the same
        condition more softly (a skipped resource is a warning, not an error of the skill)."""
        return Diagnostic(path, self.id, severity or self.severity, message, where, related)


CODES: dict[str, Code] = {}


def register(*args: object, **kwargs: object) -> Code:
    code = Code(*args, **kwargs)  # type: ignore[arg-type]
    assert code.id not in CODES, f"diagnostic code {code.id} registered twice"
    CODES[code.id] = code
    return code


# --- discovery: the folders and files of a root ------------------------------------------------------------

SKILL_FILE_MISSING = register(
    "skill-file-missing", ERROR,
    "A folder in a skills root has no SKILL.md.",
    "a child folder of a root has no `SKILL.md` (placed on the folder); the message explains the traps that "
    "hide a skill: a `skill.md` in other letter case, or skills nested a level too deep "
    "(`plugin/skills/x/SKILL.md`, up to 3 named)",
    "Add a `SKILL.md` with `name` and `description` frontmatter, or move the folder out of the skills root; "
    "rename a `skill.md` to `SKILL.md` (a safe fix does), or move nested skill folders up into the root.",
)
SKILL_FILE_NOT_REGULAR = register(
    "skill-file-not-regular", ERROR,
    "SKILL.md is not a regular file, or resolves outside its skill folder.",
    "`SKILL.md` is a folder, FIFO, device or broken link, or a link that resolves outside its skill folder; "
    "a FIFO is never opened",
    "Replace it with a regular file inside the skill folder.",
)
SKILL_FILE_TOO_LARGE = register(
    "skill-file-too-large", ERROR,
    "SKILL.md is over 1 MiB.",
    "`SKILL.md` is over 1 MiB (at most 1 MiB + 1 byte is read)",
    "Move long material into files under `references/`.",
)
FRONTMATTER_TOO_LARGE = register(
    "frontmatter-too-large", ERROR,
    "The frontmatter block is over 64 KiB.",
    "the YAML between the `---` lines is over 64 KiB",
    "Keep the frontmatter to the fields; move long text into the body or `references/`.",
)
ENCODING = register(
    "encoding", ERROR,
    "SKILL.md is not valid UTF-8.",
    "bytes that are not UTF-8 (placed at the first bad byte); a BOM is skipped",
    "Save the file as UTF-8.",
)

# --- the frontmatter block and its YAML ----------------------------------------------------------------------

FRONTMATTER_MISSING = register(
    "frontmatter-missing", ERROR,
    "SKILL.md does not start with a `---` frontmatter line.",
    "the first line is not exactly `---`; when the frontmatter opens after text or blank lines, the message "
    "says so",
    "Start the file with a `---` line, the `name` and `description` fields, and a closing `---` line; remove "
    "any text or blank line above the opening `---`.",
    fixable=True,
)
FRONTMATTER_UNTERMINATED = register(
    "frontmatter-unterminated", ERROR,
    "The frontmatter has no closing `---` line.",
    "no later line is `---` (trailing spaces or tabs allowed)",
    "Add a `---` line after the last field.",
)
FRONTMATTER_NOT_MAPPING = register(
    "frontmatter-not-mapping", ERROR,
    "The frontmatter is not a YAML map.",
    "the YAML is a list or a scalar",
    "Write the frontmatter as `key: value` lines, such as `name: my-skill`.",
)
YAML_SYNTAX = register(
    "yaml-syntax", ERROR,
    "The frontmatter is not valid YAML.",
    "the parser stopped here; also a second document, or a lone CR, NEL, LS or PS line break inside the "
    "frontmatter",
    "Fix the YAML at the range shown; quote values that hold `: ` or start with a special character.",
)
YAML_UNQUOTED_COLON = register(
    "yaml-unquoted-colon", ERROR,
    "A one-line value holds `: ` without quotes, which YAML reads as another key.",
    "a field's value on one line holds `: ` (such as `description: Use this: when asked`), so the YAML does "
    "not parse; the range is the value. Other common YAML mistakes (`: ` in a continued line, a tab, an "
    "unclosed quote, a value starting with `@`, a backtick, `%`, `*`, `&`, `[`, `{`, `|`, `>` or `- `) are "
    "`yaml-syntax` with the same kind of plain advice",
    "Put the value in double quotes (`description: \"Use this: when asked\"`); the quick fix does, and `check "
    "--fix` applies it. Or fold it with `>-` and write the text on the next lines, indented.",
    fixable=True,
)
YAML_TAG = register(
    "yaml-tag", ERROR,
    "The frontmatter uses a YAML tag outside the failsafe schema.",
    "any tag but `!!str`, `!!map`, `!!seq` (failsafe schema)",
    "Remove the tag; every value is read as a string.",
)
YAML_ALIAS = register(
    "yaml-alias", ERROR,
    "The frontmatter uses a YAML anchor or alias.",
    "an anchor or an alias",
    "Write the value out in full instead of an anchor and alias.",
)
YAML_DUPLICATE_KEY = register(
    "yaml-duplicate-key", ERROR,
    "The frontmatter repeats a key.",
    "a key repeated in one map (on the second one)",
    "Keep one of the two keys.",
)

# --- the fields ---------------------------------------------------------------------------------------------

NAME_MISSING = register(
    "name-missing", ERROR,
    "The `name` field is missing or empty.",
    "no `name`, or an empty one",
    "Add `name:` with the skill folder's name.",
)
NAME_INVALID = register(
    "name-invalid", ERROR,
    "The `name` is not 1-64 lowercase ASCII letters, digits and single hyphens.",
    "not 1–64 of `a-z0-9-`, a leading/trailing `-`, or `--`; the message names the first offending character",
    "Use 1–64 lowercase letters, digits and single hyphens; the quick fix offers the folder's name or a "
    "corrected one.",
    fixable=True,
)
NAME_MISMATCH = register(
    "name-mismatch", ERROR,
    "The `name` differs from the skill folder's name.",
    "`name` differs from the folder (range: the value of `name`)",
    "Rename the folder or the `name` so they match; the quick fix sets the folder's name.",
    fixable=True,
)
DESCRIPTION_MISSING = register(
    "description-missing", ERROR,
    "The `description` field is missing or blank.",
    "no `description`, or a blank one",
    "Add a `description`: what the skill does and when to use it.",
)
DESCRIPTION_TOO_LONG = register(
    "description-too-long", ERROR,
    "The `description` is over 1,024 characters.",
    "over 1,024 characters (a block scalar's final line break not counted)",
    "Shorten it; move detail into the body.",
)
DESCRIPTION_PLACEHOLDER = register(
    "description-placeholder", WARNING,
    "The `description` is still the placeholder a new skill starts with.",
    "the `description` is exactly the text `albedo-skills new` and the editor's template write (`Replace this "
    "text with what the skill does and when to use it`); the skill stays in the catalog, but the model would "
    "read that text",
    "Replace it with what the skill does and when to use it: the model reads it to decide when to use the skill.",
)
FIELD_TYPE = register(
    "field-type", ERROR,
    "A field has the wrong type (a list or map where a string belongs).",
    "`name`, `description`, `license` or `compatibility` is a list or map; `allowed-tools` is a map or a list "
    "holding a map or a list (a list of strings is `allowed-tools-list`); `metadata` is not a map of strings",
    "Write the value as one string (quote it, or join a list into one string).",
)
COMPATIBILITY_INVALID = register(
    "compatibility-invalid", ERROR,
    "The `compatibility` field is empty or over 500 characters.",
    "empty, or over 500 characters",
    "Describe the environment the skill needs in at most 500 characters, or remove the field.",
)
FIELD_UNKNOWN = register(
    "field-unknown", WARNING,
    "A top-level frontmatter key is not one of the Agent Skills fields.",
    "a key outside the six; suggests the close one (`desciption` → `description`)",
    "Fix the spelling (the quick fix renames it to the field it most likely meant) or remove the key.",
    fixable=True,
)
FIELD_HOST_SPECIFIC = register(
    "field-host-specific", INFORMATION,
    "A field defined by other hosts, which Albedo ignores.",
    "`argument-hint`, `user-invocable`, `disable-model-invocation`, `model`, `context`, `agent`, `hooks`, "
    "`version`, `when_to_use`, `effort`, `paths`: Albedo ignores this field",
    "Nothing, if another host needs it; Albedo ignores it.",
)
ALLOWED_TOOLS_LIST = register(
    "allowed-tools-list", WARNING,
    "`allowed-tools` is a YAML list; the format wants one space-separated string.",
    "`allowed-tools` is a list of strings (the skill stays in the catalog); a list holding a map or a list, "
    "or a map, is `field-type`",
    "Join the items with spaces (`allowed-tools: Read Grep`); the quick fix does, and `check --fix` applies "
    "it.",
    fixable=True,
)

# --- the body -----------------------------------------------------------------------------------------------

BODY_TOO_LONG = register(
    "body-too-long", INFORMATION,
    "The Markdown body is over 500 lines or about 5,000 tokens.",
    "over 500 body lines, or over about 5,000 tokens (characters / 4)",
    "Move detail into files under `references/` and link them from the body.",
)
REFERENCE_MISSING = register(
    "reference-missing", WARNING,
    "A relative file reference in the body names nothing inside the skill folder.",
    "a relative file reference in the body names no file in the skill: a Markdown link or image, or a link "
    "reference definition (`[id]: target`, nothing else on the line; a footnote `[^1]:` is none), a warning; "
    "or a backticked concrete path under `references/`, `scripts/`, `assets/` or an existing folder, "
    "information (no `*`, `?`, `<`, `{`, `[`, `$`, `...`, no placeholder word such as `example`, "
    "`filename`, `your-`, `path/to`). `{baseDir}/` and `${CLAUDE_SKILL_DIR}/` stand for the skill folder. "
    "A near miss (other letter case, or `reference/` for `references/`) is named",
    "Create the file, or correct the path (relative to the skill folder); for a near miss the quick fix "
    "uses the path that exists.",
    fixable=True,
)
REFERENCE_OUTSIDE = register(
    "reference-outside", WARNING,
    "A file reference in the body resolves outside the skill folder.",
    "a Markdown link in the body that climbs out of the skill folder (`..`, absolute, or a link escaping it); "
    "a link to a sibling skill (`../other/SKILL.md`) is named as such",
    "Copy the file into the skill folder and link it there: a skill travels as its folder. Refer to another "
    "skill by its name rather than by a path.",
)
LICENSE_FILE_MISSING = register(
    "license-file-missing", WARNING,
    "The `license` field names a file that is not in the skill folder.",
    "a word of `license` that is a relative file name ending in `.txt`, `.md`, `.markdown`, `.rst`, `.html` "
    "or `.pdf` (`Complete terms in LICENSE.txt`) names no file inside the skill folder, or one outside it; "
    "URLs and license words (`MIT License`, `LICENSE AGREEMENT`) are not file names",
    "Add the file to the skill folder, correct its name, or name the license without a file: a skill is "
    "installed as its folder alone, so a file beside it does not travel with it. For a near miss (other "
    "letter case) the quick fix uses the name that exists.",
    fixable=True,
)

# --- several skills: collisions ----------------------------------------------------------------------------

COLLISION = register(
    "collision", WARNING,
    "A valid skill is hidden by another skill with the same name.",
    "a valid skill whose name a winning skill holds; message and related information name the winner",
    "Rename one of the two skills (folder and `name`), or remove the one you do not want.",
)
COMMAND_COLLISION = register(
    "command-collision", INFORMATION,
    "A skill's name is a built-in command; it is reachable as /skill:NAME.",
    "a skill named like a built-in command: it is `/skill:NAME`",
    "Nothing, or rename the skill to reach it as `/NAME`.",
)
SYMLINK_ESCAPE = register(
    "symlink-escape", ERROR,
    "A linked skill folder resolves outside its discovery root.",
    "a linked skill folder resolves outside its discovery root",
    "Move the skill into the root instead of linking it.",
)

# --- bounds and the file system ------------------------------------------------------------------------------

CANDIDATE_LIMIT = register(
    "candidate-limit", WARNING,
    "More than 128 skill folders: the rest are left out of the catalog.",
    "more than 128 candidate skill folders across the roots: says how many are left out of the catalog; placed "
    "on the first one left out (its `SKILL.md`, or the folder without one). An editor does not examine the "
    "folders left out; `albedo-skills check` examines and reports every one, and this warning still says "
    "which are out of the catalog",
    "Remove unused skills from the roots.",
)
DIAGNOSTIC_LIMIT = register(
    "diagnostic-limit", INFORMATION,
    "More than 64 diagnostics in the catalog, or 200 for one file in the editor: the rest were not shown.",
    "more than 64 catalog diagnostics (the catalog snapshot and the editor's catalog view): errors are kept "
    "first, then warnings, then information (within a severity, in sorted order); this one says how many were "
    "not shown and sits on the workspace folder (without one, on the first root that exists). In the editor, "
    "more than 200 for one file: the 200 most severe are shown and this one says how many more. "
    "`albedo-skills check` never bounds its report, so it never emits this code",
    "Fix the diagnostics shown and reload to see the rest; `albedo-skills check` lists them all, in every format.",
)
UNREADABLE = register(
    "unreadable", ERROR,
    "A file or folder could not be read.",
    "a permission or I/O error, or a link in a root that cannot be followed (dangling, a loop), with the OS's "
    "reason",
    "Check the permissions, or point the link at a skill folder or remove it.",
)

# --- chat buffers -------------------------------------------------------------------------------------------

UNKNOWN_COMMAND = register(
    "unknown-command", INFORMATION,
    "A slash command at a message start is not in the command catalog.",
    "chat buffers: a `/command` at a message start that the catalog does not know",
    "Check `commands.catalog` for the available commands, or reload if the skill was added since.",
)

# --- commands named in prose: skill bodies, agent files, chat files ----------------------------------------

COMMAND_UNKNOWN = register(
    "command-unknown", WARNING,
    "A `/command` in a skill, an agent file or a chat file names no command, but is one edit from one.",
    "a `/word` standing alone in running text (docs/rename.md: in a sentence or at a line start; never in code, "
    "a path, a URL or `and/or`) in a skill's body, `AGENTS.md`, `CLAUDE.md`, `GEMINI.md` or a chat file, that "
    "is no command of the catalog while one is a letter away (added, dropped, changed, two swapped, or letter "
    "case), or is the old name of a skill the editor renamed in this session. A `/word` close to no command "
    "(`/tmp`, a path) says nothing; the top folders of a Unix file system (`/etc`, `/usr`...) never warn. In a "
    "chat file a command at a message start close to none stays `unknown-command`",
    "Apply the quick fix (`did you mean /demo?`) or correct the command. If the word is meant as written, "
    "silence it with a reason on the line above: `<!-- albedo-skills-ignore command-unknown: why -->`.",
    fixable=True,
)

# --- skills.resources: entries left out of a listing (reported as warnings or information) -------------------

RESOURCE_NOT_REGULAR = register(
    "resource-not-regular", INFORMATION,
    "A resource entry is a FIFO, socket or device: skipped.",
    "`skills.resources`: a FIFO, socket or device beneath the skill folder",
    "Nothing: only regular files are resources.",
)
RESOURCE_NAME = register(
    "resource-name", WARNING,
    "A resource's file name is not valid UTF-8: skipped.",
    "`skills.resources`: a file name that is not UTF-8",
    "Rename the file with a UTF-8 name.",
)
RESOURCE_LOOP = register(
    "resource-loop", WARNING,
    "A resource folder or link leads back to one already listed: skipped.",
    "`skills.resources`: a link loop, or a folder reached twice through links",
    "Remove the link, or let it point at files not otherwise listed.",
)
RESOURCE_LIMIT = register(
    "resource-limit", WARNING,
    "The resource listing reached a bound and stopped.",
    "`skills.resources`: 512 files, 2,048 entries or 16 levels reached",
    "Keep fewer files in the skill folder, or nest them less deeply.",
)

# --- other agents (skills/hosts/; only for the agents chosen with `check --hosts` or `albedoSkills.hosts`) ----

HOST_SKIPPED = register(
    "host-skipped", WARNING,
    "A chosen agent skips this skill.",
    "an agent named in `check --hosts` or the `albedoSkills.hosts` setting would not load the file (its reason "
    "in its own words where known, and how that is known: run here, or read in its source)",
    "Follow the message for that agent; Albedo's own verdict is unchanged. `albedo-skills hosts` shows every agent.",
)
HOST_NOT_SEEN = register(
    "host-not-seen", INFORMATION,
    "A chosen agent does not read the folder this skill is in.",
    "the file lies in a skills folder that an agent named in `check --hosts` or `albedoSkills.hosts` never reads "
    "(for example `.agents/skills` for Claude Code)",
    "Move the skill folder, or link it, into a folder that agent reads; the message names one.",
)
HOST_BUDGET = register(
    "host-budget", INFORMATION,
    "A chosen agent's catalog budget is exceeded: this description is cut, or the skill left out.",
    "the names and descriptions the agent would show its model exceed its catalog budget (Codex 8,000 "
    "characters, Claude Code about 8,000, Zed 50 KB), so this skill's description is cut or it is left out",
    "Shorten the longest descriptions, or remove skills that agent does not need.",
)

SECURITY = "security"  # the category of the codes in security_codes.py, which registers them here on import

# The codes an editor quick fix exists for (skills/authoring/fixes.py offers one per diagnostic of these).
FIXABLE: frozenset[str] = frozenset(code.id for code in CODES.values() if code.fixable)
