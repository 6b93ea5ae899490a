"""The validation rules of docs/design.md#2-validation-rules that look at one document.

`check_document` turns a `SKILL.md`'s text into a `ParsedSkill`: its identity (`name`, `description`) and
every finding with its exact range. Rules about several skills (collisions) live in `discovery.py`.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..core import codes, limits
from ..core import programs
from ..core.codes import Code
from .frontmatter import SkillText, read_text
from ..core.model import ERROR, Diagnostic, Range
from .reference_scan import Reference, find_references, license_references
from .yamltree import Entry, Mapping, Node, Scalar, Sequence

KNOWN_FIELDS = ("name", "description", "license", "compatibility", "metadata", "allowed-tools")
REQUIRED_FIELDS = ("name", "description")
# Keys that other hosts of the format define; Albedo accepts them silently but says it ignores them.
HOST_SPECIFIC_FIELDS = (
    "argument-hint",
    "user-invocable",
    "disable-model-invocation",
    "model",
    "context",
    "agent",
    "hooks",
    "version",
    "when_to_use",
    "effort",
    "paths",
)
STRING_FIELDS = ("name", "description", "license", "compatibility", "allowed-tools")
# The description a new skill starts with (`albedo-skills new`, the editor's template): a skill that still has
# it would tell the model nothing, so it is a warning until replaced.
PLACEHOLDER_DESCRIPTION = "Replace this text with what the skill does and when to use it"

NAME_PATTERN = programs.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*\Z")
NAME_CHARACTER = programs.compile(r"[a-z0-9-]")


class ParsedSkill(NamedTuple):
    """One document's identity and findings. `valid` means no finding is an error."""

    path: str
    name: str | None
    description: str | None
    name_range: Range | None
    diagnostics: tuple[Diagnostic, ...]
    # relative file references in the body (reference_scan.py), kept so they can be checked on disk again
    # without the body; `references.check_references` turns them into diagnostics
    references: tuple[Reference, ...] = ()

    @property
    def valid(self) -> bool:
        return not any(d.severity == ERROR for d in self.diagnostics)


def name_problem(name: str) -> str | None:
    """Why `name` is not a valid skill name, or None. Names the first offending character."""
    if len(name) <= limits.MAX_NAME_CHARS and NAME_PATTERN.match(name):
        return None  # the usual case, in one regex call rather than one per character
    if len(name) > limits.MAX_NAME_CHARS:
        return f"is {len(name)} characters long; the limit is {limits.MAX_NAME_CHARS}"
    for index, char in enumerate(name):
        if not NAME_CHARACTER.match(char):
            return (
                f"has {char!r} at position {index + 1}; use only lowercase ASCII letters, digits and `-`"
            )
    if name.startswith("-") or name.endswith("-"):
        return "starts or ends with `-`"
    if "--" in name:
        return "holds `--`; use single hyphens"
    return None


def suggest_name(name: str) -> str:
    """A valid name close to `name`: lowercase, other characters to hyphens, trimmed. May be empty."""
    lowered = re.sub(r"[^a-z0-9]+", "-", name.lower())
    return re.sub(r"-{2,}", "-", lowered).strip("-")[: limits.MAX_NAME_CHARS].strip("-")


def close_field(key: str) -> str | None:
    """The known field a misspelled key most likely meant."""
    import difflib  # only needed for unknown keys, so kept off the command line's start-up

    matches = difflib.get_close_matches(key.lower(), KNOWN_FIELDS, n=1, cutoff=0.75)
    return matches[0] if matches else None


def string_items(node: Node) -> list[str] | None:
    """The items of a YAML list whose items are all strings, or None for anything else."""
    if not isinstance(node, Sequence) or not all(isinstance(item, Scalar) for item in node.items):
        return None
    return [item.value for item in node.items]  # type: ignore[union-attr]


def description_length(value: str) -> int:
    """Characters counted toward the 1,024 bound: the value without its final line break."""
    return len(value[:-1] if value.endswith("\n") else value)


class _Checker:
    def __init__(self, path: str, reader_findings: tuple[Diagnostic, ...] = ()) -> None:
        self.path = path
        self.found: list[Diagnostic] = list(reader_findings)
        # values the reader already rejected (an alias, an anchored value): checking their content again
        # would add a second, misleading error (an alias reads as an empty string)
        self.rejected = {d.range for d in reader_findings if d.code == codes.YAML_ALIAS.id}
        self.fields: dict[str, Entry] = {}  # the first entry of each plain key (`Mapping.get`), see `index`

    def index(self, root: Mapping) -> None:
        """Look every field up once: the rules ask for seven of them, and `Mapping.get` is a linear scan."""
        for entry in root.entries:
            if entry.key.__class__ is Scalar:
                self.fields.setdefault(entry.key.value, entry)

    def add(self, code: Code, message: str, where: Range) -> None:
        self.found.append(code.at(self.path, message, where))

    def string_field(self, key: str) -> tuple[str | None, Node | None]:
        """The field's string value (None when absent or not a string) and its value node (None when
        absent). The node rather than its range: most ranges are never placed in a diagnostic."""
        entry = self.fields.get(key)
        if entry is None:
            return None, None
        node = entry.value
        if not isinstance(node, Scalar):
            if isinstance(node, Mapping):  # `key: {...}`, or `key: a: b` over two lines
                advice = "write it as one string, in double quotes if it starts with `{` or holds `: `"
                kind = "a map"
            else:  # `- ` items where a string was meant
                advice = f"write one string; to spread it over lines, fold it: `{key}: >-`, then the lines indented, without `- `"
                kind = "a list"
            self.add(codes.FIELD_TYPE, f"`{key}` must be a string, not {kind}: {advice}", node.range)
            return None, node
        if self.rejected and node.range in self.rejected:
            return None, node
        return node.value, node

    def allowed_tools(self) -> None:
        """A YAML list of strings is how most people write `allowed-tools`: a warning with a quick fix
        (docs/design.md#7-what-real-skills-taught), not an error. Anything else that is not a string is `field-type`."""
        entry = self.fields.get("allowed-tools")
        if entry is not None and string_items(entry.value) is not None:
            self.add(
                codes.ALLOWED_TOOLS_LIST,
                "`allowed-tools` is a list; the format wants one space-separated string "
                "(`allowed-tools: Read Grep`): join the items",
                entry.value.range,
            )
            return
        self.string_field("allowed-tools")

    def metadata(self) -> None:
        entry = self.fields.get("metadata")
        if entry is None:
            return
        if not isinstance(entry.value, Mapping):
            self.add(
                codes.FIELD_TYPE,
                "`metadata` must be a map of string keys to string values",
                entry.value.range,
            )
            return
        for item in entry.value.entries:
            if not isinstance(item.key, Scalar):
                self.add(codes.FIELD_TYPE, "`metadata` keys must be strings", item.key.range)
            elif not isinstance(item.value, Scalar):
                self.add(
                    codes.FIELD_TYPE,
                    f"`metadata.{item.key.value}` must be a string value; quote it or join it into one string",
                    item.value.range,
                )

    def keys(self, root: Mapping) -> None:
        for entry in root.entries:
            key = entry.key
            if not isinstance(key, Scalar):
                self.add(codes.FIELD_TYPE, "frontmatter keys must be plain strings", key.range)
                continue
            if key.value in KNOWN_FIELDS:
                continue
            if key.value in HOST_SPECIFIC_FIELDS:
                self.add(
                    codes.FIELD_HOST_SPECIFIC,
                    f"`{key.value}` is defined by other hosts; Albedo ignores this field",
                    key.range,
                )
                continue
            guess = close_field(key.value)
            if guess and guess == key.value.lower() and guess in self.fields:
                # `Name:` beside `name:` (seen in real skills): suggesting `name` would only duplicate it
                hint = f"; `{guess}` is already set (keys are case-sensitive): remove this one"
            elif guess:
                hint = f"; did you mean `{guess}`?"
            else:
                hint = f"; the known fields are {', '.join(KNOWN_FIELDS)}"
            hint += "; put other properties under `metadata`" if not guess else ""
            self.add(codes.FIELD_UNKNOWN, f"unknown field `{key.value}`{hint}", key.range)


def check_frontmatter(
    skill_text: SkillText, path: str, folder_name: str | None, references: tuple[Reference, ...] = ()
) -> ParsedSkill:
    """Apply every single-document rule. `folder_name` None skips the name/folder check; `references` are
    the body's, carried into the result (see `check_document`)."""
    checker = _Checker(path, skill_text.diagnostics)
    frontmatter = skill_text.frontmatter
    root: Node | None = frontmatter.root if frontmatter else None
    if frontmatter is None or root is None:
        return ParsedSkill(path, None, None, None, tuple(checker.found), references)
    if not isinstance(root, Mapping):
        checker.add(
            codes.FRONTMATTER_NOT_MAPPING,
            "the frontmatter must be a YAML map of fields such as `name: my-skill`",
            root.range,
        )
        return ParsedSkill(path, None, None, None, tuple(checker.found), references)

    checker.index(root)
    checker.keys(root)
    whole = frontmatter.delimiter_range

    name, name_node = checker.string_field("name")
    name_range = name_node.range if name_node is not None else None
    name_invalid: str | None = None  # why a non-empty string name is invalid
    if name_range is None:
        checker.add(codes.NAME_MISSING, "add a `name` field: the skill folder's name", whole)
    elif name is not None:
        if not name:
            checker.add(codes.NAME_MISSING, "`name` is empty: set it to the skill folder's name", name_range)
        elif name_invalid := name_problem(name):
            checker.add(codes.NAME_INVALID, f"name `{name}` {name_invalid}", name_range)
        elif folder_name is not None and name != folder_name:
            checker.add(
                codes.NAME_MISMATCH,
                f"name `{name}` differs from its folder `{folder_name}`: rename one so they match",
                name_range,
            )

    description, description_node = checker.string_field("description")
    if description_node is None:
        checker.add(
            codes.DESCRIPTION_MISSING,
            "add a `description`: what the skill does and when to use it", whole
        )
    elif description is not None:
        if not description.strip():
            checker.add(
                codes.DESCRIPTION_MISSING,
                "`description` is blank: say what the skill does and when to use it",
                description_node.range,
            )
        elif description.strip() == PLACEHOLDER_DESCRIPTION:
            checker.add(
                codes.DESCRIPTION_PLACEHOLDER,
                "`description` is still the placeholder of a new skill: replace it with what the skill does and "
                "when to use it (the model reads it to decide when to use the skill)",
                description_node.range,
            )
        elif (length := description_length(description)) > limits.MAX_DESCRIPTION_CHARS:
            checker.add(
                codes.DESCRIPTION_TOO_LONG,
                f"description is {length:,} characters; the limit is {limits.MAX_DESCRIPTION_CHARS:,}: "
                "move detail into the body",
                description_node.range,
            )

    license_text, license_node = checker.string_field("license")
    if license_text and isinstance(license_node, Scalar):
        # the files it names are checked on disk with the body's references (catalog/references.py)
        references = (*license_references(license_node), *references)
    checker.allowed_tools()
    compatibility, compatibility_node = checker.string_field("compatibility")
    if compatibility is not None and compatibility_node is not None:
        if not compatibility.strip():
            checker.add(
                codes.COMPATIBILITY_INVALID,
                "`compatibility` is empty: describe the environment the skill needs, or remove the field",
                compatibility_node.range,
            )
        elif (length := description_length(compatibility)) > limits.MAX_COMPATIBILITY_CHARS:
            # counted like a description: a folded or literal block's final line break is not content
            checker.add(
                codes.COMPATIBILITY_INVALID,
                f"`compatibility` is {length} characters; the limit is "
                f"{limits.MAX_COMPATIBILITY_CHARS}",
                compatibility_node.range,
            )
    checker.metadata()
    _check_body(checker, skill_text, frontmatter.body_start, frontmatter.end_line)

    valid_name = name if name_range is not None and name and name_invalid is None else None
    return ParsedSkill(
        path,
        valid_name,
        description if description and description.strip() else None,
        name_range,
        tuple(checker.found),
        references,
    )


def _check_body(checker: _Checker, skill_text: SkillText, body_start: int, end_line: int) -> None:
    text = skill_text.text
    if text is None:
        return
    # the body's lines and characters, counted in the text from the offset where the body starts
    line_count = text.count("\n", body_start) + (body_start < len(text) and not text.endswith("\n"))
    if line_count <= 0:
        return
    characters = len(text) - body_start
    tokens = characters / limits.CHARS_PER_TOKEN  # the estimate; over 5,000 means over 20,000 characters
    if line_count > limits.MAX_BODY_LINES:
        first_over = end_line + 1 + limits.MAX_BODY_LINES
        checker.add(
            codes.BODY_TOO_LONG,
            f"the body has {line_count:,} lines; keep it under {limits.MAX_BODY_LINES} and move detail into "
            "files under references/",
            Range.of(first_over, 0),
        )
    elif tokens > limits.MAX_BODY_TOKENS:
        checker.add(
            codes.BODY_TOO_LONG,
            f"the body is about {round(tokens):,} tokens; keep it under about {limits.MAX_BODY_TOKENS:,} and move "
            "detail into files under references/",
            Range.of(end_line + 1, 0),
        )


def check_document(data: bytes | str, path: str, folder_name: str | None) -> ParsedSkill:
    """Read and check one `SKILL.md` from its bytes (disk) or its text (an editor buffer)."""
    skill_text = read_text(data, path)
    text, frontmatter = skill_text.text, skill_text.frontmatter
    references: tuple[Reference, ...] = ()
    if text is not None:
        body = (frontmatter.end_line + 1, frontmatter.body_start) if frontmatter else None
        references = tuple(find_references(text, body))
    return check_frontmatter(skill_text, path, folder_name, references)
