"""Property tests of the reader and the single-document rules: any text or bytes gives diagnostics, never
an exception, and every diagnostic's range lies inside the document as an editor shows it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from albedo_skills_ls.skills.document import rules
from albedo_skills_ls.skills.core.model import ERROR, INFORMATION, WARNING

PATH = "/skills/demo/SKILL.md"
FOLDER = "demo"

KNOWN_CODES = {
    "encoding",
    "frontmatter-missing",
    "frontmatter-unterminated",
    "frontmatter-not-mapping",
    "frontmatter-too-large",
    "yaml-syntax",
    "yaml-unquoted-colon",
    "yaml-tag",
    "yaml-alias",
    "yaml-duplicate-key",
    "name-missing",
    "name-invalid",
    "name-mismatch",
    "description-missing",
    "description-too-long",
    "field-type",
    "compatibility-invalid",
    "field-unknown",
    "field-host-specific",
    "allowed-tools-list",
    "body-too-long",
}

# Pieces that steer the reader and the YAML parser into their deeper paths.
FRAGMENTS = [
    "---",
    "--- ",
    "  ---",
    "...",
    "name: demo",
    "name: Demo",
    "name:",
    "name: [a, b]",
    "description: d",
    "description: >",
    "description: |-",
    "description:",
    "  folded line",
    "metadata:",
    "  key: value",
    "  - item",
    "- item",
    "license: !!int 1",
    "compatibility: !foo x",
    "allowed-tools: !!str Bash",
    "a: &anchor x",
    "b: *anchor",
    "<<: *anchor",
    "? [complex]",
    ": value",
    "{a: [b, {c: d}]}",
    "[",
    "{",
    "'unterminated",
    '"esc \\u00e9 \\x41',
    "\t- tab",
    "# comment",
    "%YAML 1.2",
    "%TAG ! tag:x,1:",
    "key: value: again",
    "desciption: typo",
    "model: host",
    "\u2028",
    "\x85",
    "\r",
    "\ufeff",
    "\x00",
    "\x07",
    "\U0001f600: \U0001f600",
    "\u00e9\u0301",
    "\ud7ff\ue000",
    "*",
    "&",
    "!",
    "? ",
    "@",
    "`",
    "%",
    "|",
    ">",
    "- ",
    ": ",
]

FRAGMENT = st.sampled_from(FRAGMENTS)
NOISE = st.text(max_size=12)
LINE_END = st.sampled_from(["\n"] * 6 + ["\r\n"] * 2 + ["\r", ""])
KEY = st.sampled_from(
    ["name", "description", "license", "compatibility", "metadata", "allowed-tools", "model", "hooks", "licence", "x"]
)
VALUE = st.one_of(
    st.sampled_from(["demo", "", "'q'", '"d"', ">", "|", "[a, b]", "{k: v}", "!!str s", "!!int 1", "&a v", "*a"]),
    st.text(max_size=10),
)
FIELD = st.tuples(KEY, VALUE).map(lambda kv: f"{kv[0]}: {kv[1]}")
LINE = st.one_of(FIELD, FRAGMENT, st.lists(st.one_of(FRAGMENT, FRAGMENT, NOISE), min_size=0, max_size=3).map("".join))
INDENT = st.sampled_from(["", "", "  ", "    ", " ", "\t"])


@st.composite
def skeleton_documents(draw) -> str:
    """A plausible SKILL.md (opening, fields, closing, body) with random lines inserted anywhere, mostly
    after the opening line so that the YAML parser and the field rules are reached."""
    lines = ["---", "name: demo", "description: d", "metadata:", "  k: v", "---", "# body"]
    for _ in range(draw(st.integers(0, 8))):
        low = 0 if draw(st.integers(0, 9)) == 0 else 1
        lines.insert(draw(st.integers(low, len(lines))), draw(INDENT) + draw(LINE))
    if draw(st.booleans()):
        del lines[draw(st.integers(1, len(lines) - 1))]
    text = "".join(line + draw(LINE_END) for line in lines)
    if draw(st.integers(0, 4)) == 0:
        text = "\ufeff" + text
    return text


@st.composite
def one_edit_documents(draw) -> str:
    """A valid SKILL.md with a single fragment spliced in: each parser error is then the first and only one,
    at its own position (ends of lines, starts of lines, the closing line)."""
    lines = ["---", "name: demo", "description: d", "metadata:", "  k: v", "---", "body"]
    at = draw(st.integers(1, len(lines) - 2))
    piece = draw(INDENT) + draw(FRAGMENT) + draw(st.sampled_from(["", "", " x", ":", " "]))
    if draw(st.booleans()):
        lines.insert(at, piece)
    else:
        lines[at] += piece
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\r\n"]))


# Lone surrogates cannot come from a file, but an editor buffer (JSON text) can carry them.
SURROGATE_TEXT = st.lists(
    st.one_of(FRAGMENT, st.text(alphabet=st.characters(exclude_categories=()), max_size=6)), max_size=8
).map(lambda parts: "---\nname: demo\n" + "\n".join(parts) + "\ndescription: d\n---\nbody")

TEXTS = st.one_of(
    one_edit_documents(),
    skeleton_documents(),
    skeleton_documents(),
    skeleton_documents(),
    st.text(max_size=200),
    st.lists(LINE, max_size=12).map("\n".join),
    st.text(alphabet=st.sampled_from("-\n\r :|>[]{}'\"&*!?#ab\t\u2028\U0001f600"), max_size=80),
)


@st.composite
def byte_documents(draw) -> bytes:
    """Arbitrary bytes, and encoded skeletons with random bytes spliced in (often invalid UTF-8)."""
    if draw(st.booleans()):
        return draw(st.binary(max_size=200))
    data = bytearray(draw(skeleton_documents()).encode("utf-8", "surrogatepass"))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(data)))
        data[at:at] = draw(st.one_of(st.binary(min_size=1, max_size=4), st.sampled_from([b"\xff", b"\xc3", b"\xe2\x82"])))
    return bytes(data)


def editor_lines(text: str) -> list[str]:
    """The document's lines as the engine counts them (split at `\\n` only; an empty document has one line),
    each without its line end (`\\n` or `\\r\\n`)."""
    return [line.removesuffix("\r") for line in text.split("\n")]


def assert_sound(parsed: rules.ParsedSkill, text: str) -> None:
    lines = editor_lines(text)
    for diag in parsed.diagnostics:
        assert diag.path == PATH
        assert diag.code in KNOWN_CODES, diag
        assert diag.severity in (ERROR, WARNING, INFORMATION)
        assert diag.message.strip()
        start, end = diag.range.start, diag.range.end
        assert (start.line, start.character) <= (end.line, end.character), diag
        for pos in (start, end):
            assert 0 <= pos.line < len(lines), (diag, len(lines))
            assert 0 <= pos.character <= len(lines[pos.line]), (diag, lines[pos.line])
    if parsed.valid:
        # a document without errors always has its identity
        assert parsed.name == FOLDER
        assert parsed.description is not None and parsed.description.strip()
        assert parsed.name_range is not None
    else:
        assert any(d.severity == ERROR for d in parsed.diagnostics)


@settings(max_examples=300, deadline=None)
@given(st.one_of(TEXTS, SURROGATE_TEXT))
def test_any_text_gives_only_diagnostics_inside_the_document(text):
    parsed = rules.check_document(text, PATH, FOLDER)
    assert_sound(parsed, text.removeprefix("\ufeff"))


@settings(max_examples=300, deadline=None)
@given(byte_documents())
def test_any_bytes_give_only_diagnostics_inside_the_document(data):
    parsed = rules.check_document(data, PATH, FOLDER)
    # An `encoding` diagnostic points into the valid prefix plus the first bad byte, which decoding with
    # replacement shows as one U+FFFD: the same lines and columns an editor displays.
    shown = data.decode("utf-8", "replace").removeprefix("\ufeff")
    assert_sound(parsed, shown)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        assert [d.code for d in parsed.diagnostics] == ["encoding"]
        assert not parsed.valid


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_text_and_its_utf8_bytes_read_the_same(text):
    # An editor buffer (text) and the file on disk (bytes) must never disagree.
    assert rules.check_document(text, PATH, FOLDER) == rules.check_document(text.encode("utf-8"), PATH, FOLDER)


def test_every_fragment_at_every_place_of_a_valid_document():
    # Exhaustive over the fragments: a single edit of a valid document, on its own line or appended to a
    # line, indented or not. Some parser errors stop *after* a line's last character (`*` or `&` alone):
    # their range must still end on that line.
    base = ["---", "name: demo", "description: d", "metadata:", "  k: v", "---", "body"]
    for fragment in FRAGMENTS:
        for indent in ("", "  "):
            for at in range(1, len(base) - 1):
                for own_line in (True, False):
                    lines = list(base)
                    if own_line:
                        lines.insert(at, indent + fragment)
                    else:
                        lines[at] += " " + indent + fragment
                    for end in ("\n", "\r\n"):
                        text = end.join(lines) + end
                        assert_sound(rules.check_document(text, PATH, FOLDER), text)
