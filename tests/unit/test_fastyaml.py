"""The fast path for common frontmatter (skills/document/fastyaml.py) against ruamel.yaml, the reference.

The contract: `parse_common` either declines (None) or gives exactly what `parse_yaml_events` gives: the
same tree, node for node, with the same ranges, and the same diagnostics. Two generated families check it:
documents of the common shape, which must also be *accepted* (so the fast path cannot pass by declining
everything), and documents across YAML's corners and near misses of the common shape, which may be
declined but never misread. A subprocess test checks that a command-line run on common frontmatter never
imports ruamel.yaml.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from albedo_skills_ls.skills.document.fastyaml import _OUTSIDE, _PRINTABLE_ASCII_AND_LF, parse_common
from albedo_skills_ls.skills.document.frontmatter import parse_yaml, read_text
from albedo_skills_ls.skills.document.yaml_events import parse_yaml_events
from albedo_skills_ls.skills.document.yamltree import Mapping, Scalar, Sequence

from conftest import write_skill

PATH = "/skills/demo/SKILL.md"

# Enough generated documents to reach the corners on every CI run, at a few seconds per property.
DIFFERENTIAL_EXAMPLES = 2000
settings.register_profile(
    "fastyaml-differential",
    max_examples=DIFFERENTIAL_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)
DIFFERENTIAL = settings.get_profile("fastyaml-differential")


def shape(node):
    """A node as plain data with its range, for comparing two trees node for node."""
    if node is None:
        return None
    where = (tuple(node.range.start), tuple(node.range.end))
    if node.__class__ is Scalar:
        return ("scalar", node.value, where)
    if node.__class__ is Sequence:
        return ("sequence", where, [shape(item) for item in node.items])
    assert node.__class__ is Mapping
    return ("mapping", where, [(shape(entry.key), shape(entry.value)) for entry in node.entries])


def reference(text: str, line_offset: int = 1):
    root, problems = parse_yaml_events(text, PATH, line_offset)
    return shape(root), list(problems)


def fast(text: str, line_offset: int = 1):
    found = parse_common(text, PATH, line_offset)
    if found is None:
        return None
    root, problems = found
    return shape(root), list(problems)


def assert_agrees(text: str) -> bool:
    """Fast path declines or agrees with ruamel.yaml; True when it accepted."""
    mine = fast(text)
    if mine is None:
        return False
    assert mine == reference(text), f"fast path disagrees with ruamel.yaml on {text!r}"
    return True


# --- examples: accepted and equal ----------------------------------------------------------------------

COMMON_EXAMPLES = [
    "",
    "# only a comment\n\n",
    "name: pdf-tools\ndescription: Fill PDF forms.\n",
    "name: pdf-tools\ndescription: Fill PDF forms.",  # no final line break
    "name: a\r\ndescription: b\r\n",
    "name: a  # the folder's name\ndescription: 'It''s quoted' # c\nlicense: \"MIT \\u00e9\\n\\\\ \\x41\"\n",
    "description: >-\n  Folded text\n  over lines.\n\n  Second paragraph.\nname: x\n",
    "description: |\n  Literal\n    indented\n\n  text\n\n\nname: x\n",
    "description: >\n  a\n  b\n",
    "description: |-\n  a\n# a comment after the block\nname: x\n",
    "description: First line\n  continues here\n\n  after an empty line\nname: x\n",
    "metadata:\n  author: me\n  version: \"1.0\"\n  empty:\n# c\nname: x\n",
    "metadata:\n    deep: |\n      block in the map\n    next: v\n",
    "name:\nname: again\nmetadata:\n  a: 1\n  a: 2\n",
    "allowed-tools: Bash(git:*) Read Write\nurl: http://example.com/a#b\nk: a :b, [c] {d}\n",
    "name: héllo wörld 😀\ndescription: \u00a0non-breaking\n",
    "a: x\n  # a comment ends the plain scalar\nb: y\n",
    "allowed-tools: [Read, Write, Bash(git*)]  # c\nrequires:\n  - rube\n  - 'x y'\n\n  - z\n    continued\nname: x\n",
]


def test_common_examples_take_the_fast_path_and_agree():
    for text in COMMON_EXAMPLES:
        assert assert_agrees(text), f"declined {text!r}"


def test_line_offset_moves_every_range():
    text = "name: a\nmetadata:\n  k: |\n    v\n"
    for offset in (0, 1, 7):
        assert fast(text, offset) == reference(text, offset)


def test_duplicate_keys_give_the_same_diagnostics_in_the_same_order():
    text = "metadata:\n  a: 1\n  a: 2\nmetadata:\n  b: 1\n  b: 2\n"
    mine = fast(text)
    assert mine is not None
    assert [(d.code, d.range.start.line) for d in mine[1]] == [
        ("yaml-duplicate-key", 3),
        ("yaml-duplicate-key", 6),
        ("yaml-duplicate-key", 4),
    ]
    assert mine == reference(text)


DECLINED_EXAMPLES = [
    "name: &a x\n",  # anchor
    "name: *a\n",  # alias
    "name: !!str x\n",  # tag
    "tools: [a, 'b']\n",  # a flow sequence of other than plain words
    "tools: [Bash(git:*)]\n",  # a colon in a flow item
    "tools:\n- a\n",  # an indentless block sequence
    "tools:\n  - a: b\n",  # a map in a sequence
    "metadata:\n  tags:\n    - a\n",  # a block sequence one level down
    "? name\n: x\n",  # complex key
    "%YAML 1.2\n---\nname: x\n",  # directive
    "name: x\n...\n",  # document end
    "name: x\n---\n",  # second document
    "name:\tx\n",  # tab
    "name: a\rb\n",  # lone CR
    "name: 'two\n  lines'\n",  # multi-line quoted
    "description: |2\n  x\n",  # indentation indicator
    "description: >+\n  x\n",  # keep chomping
    "description: >\n  a\n    more\n",  # more-indented folded line
    "metadata:\n  inner:\n    deeper: x\n",  # two levels
    "name: a: b\n",  # an error ruamel.yaml must report
    "'quoted key': x\n",
    "  indented: document\n",
]


def test_outside_the_common_shape_the_fast_path_declines():
    for text in DECLINED_EXAMPLES:
        assert parse_common(text, PATH, 1) is None, text


def test_parse_yaml_uses_the_fast_path_result_and_falls_back_for_the_rest():
    accepted = "name: a\nmetadata:\n  k: v\n"
    assert shape(parse_yaml(accepted, PATH, 1)[0]) == fast(accepted)[0]
    anchored = "name: &a x\n"
    assert [d.code for d in parse_yaml(anchored, PATH, 1)[1]] == ["yaml-alias"]


# --- generated: the common shape, accepted and equal -----------------------------------------------------

WORD_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
VALUE_CHARS = WORD_CHARS + " .,;:#'\"-_/\\()[]{}!?&*%@`|>=+~^$\u00e9\u00df\u4e2d\U0001f600\u00a0"
KEYS = st.sampled_from(["name", "description", "license", "metadata", "a", "k-1", "x_y", "a.b", "0", "on"])


def _plain_ok(text: str, continuation: bool) -> bool:
    return (
        bool(text.strip(" "))
        and text[0] not in " -?:,[]{}#&*!|>'\"%@`"
        and ": " not in text
        and not text.rstrip(" ").endswith(":")
        and " #" not in text
        and not (continuation and text.strip(" ")[0] in "-?:,[]{}#&*!|>'\"%@`")
    )


flow_word = st.from_regex(r"\A[A-Za-z0-9_][A-Za-z0-9_.()*/@+-]{0,10}\Z")
plain_text = st.text(VALUE_CHARS, min_size=1, max_size=24).filter(lambda t: _plain_ok(t, False))
continuation_text = st.text(VALUE_CHARS, min_size=1, max_size=24).filter(lambda t: _plain_ok(t.strip(" "), True))
comment = st.sampled_from(["", "  # note", " #", " # a: b 'x'"])


@st.composite
def single_quoted(draw):
    body = draw(st.text(VALUE_CHARS, max_size=20))
    return "'" + body.replace("'", "''") + "'"


@st.composite
def double_quoted(draw):
    pieces = draw(
        st.lists(
            st.one_of(
                st.text(VALUE_CHARS.replace('"', "").replace("\\", ""), min_size=1, max_size=8),
                st.sampled_from(["\\n", "\\t", "\\\\", '\\"', "\\/", "\\0", "\\ ", "\\e", "\\N", "\\_", "\\L"]),
                st.sampled_from(["\\x41", "\\xe9", "\\u00e9", "\\u4e2d", "\\U0001F600", "\\uFFFD"]),
            ),
            max_size=5,
        )
    )
    return '"' + "".join(pieces) + '"'


@st.composite
def one_line_value(draw, parent: int):
    kind = draw(st.sampled_from(["plain", "plain", "single", "double", "empty"]))
    if kind == "empty":
        return draw(st.sampled_from(["", " ", " # nothing"])), []
    if kind == "single":
        return " " + draw(single_quoted()) + draw(comment), []
    if kind == "double":
        return " " + draw(double_quoted()) + draw(comment), []
    first = draw(plain_text)
    if draw(st.booleans()):
        return " " + first + draw(comment), []
    # continued over more-indented lines, with empty lines between some of them
    lines = []
    for text in draw(st.lists(continuation_text, min_size=1, max_size=3)):
        lines += [""] * draw(st.integers(0, 2))
        lines.append(" " * (parent + draw(st.integers(1, 3))) + text)
    return " " + first, lines


@st.composite
def block_value(draw, parent: int):
    header = draw(st.sampled_from(["|", "|-", ">", ">-"]))
    indent = parent + draw(st.integers(1, 3))
    lines = []
    texts = draw(st.lists(st.text(VALUE_CHARS, min_size=1, max_size=24), min_size=1, max_size=4))
    for number, text in enumerate(texts):
        if header.startswith(">") or number == 0 or not draw(st.booleans()):  # the first line sets the indent
            text = text.lstrip(" ") or "x"
        else:
            text = " " * draw(st.integers(0, 2)) + (text.strip(" ") or "x")
        if number and draw(st.booleans()):
            lines += [""] * draw(st.integers(1, 2))
        lines.append(" " * indent + text.rstrip(" "))
    lines += [""] * draw(st.integers(0, 2))
    return " " + header + draw(st.sampled_from(["", " "])), lines


@st.composite
def entries(draw, parent: int, nested_allowed: bool):
    out = []
    after_block = False
    for _ in range(draw(st.integers(1, 5))):
        if draw(st.integers(0, 5)) == 0:
            # a whitespace-only line right after a block scalar is declined (its spaces may be content)
            separators = ["", "# comment", " " * parent + "# indented: comment"] + ([] if after_block else ["  "])
            out.append(draw(st.sampled_from(separators)))
        key = draw(KEYS)
        kinds = ["line", "line", "block", "flow"] + (["nested", "list"] if nested_allowed else [])
        kind = draw(st.sampled_from(kinds))
        if kind == "flow":
            words = draw(st.lists(flow_word, min_size=1, max_size=4))
            separators = [draw(st.sampled_from([",", ", ", " , ", ",  "])) for _ in words[1:]]
            inner = words[0] + "".join(sep + word for sep, word in zip(separators, words[1:]))
            pad = draw(st.sampled_from(["", " "]))
            out.append(" " * parent + f"{key}: [{pad}{inner}{pad}]" + draw(comment))
            after_block = False
            continue
        if kind == "list":
            column = draw(st.integers(1, 4))
            out.append(key + ":" + draw(st.sampled_from(["", "  # list"])))
            for _ in range(draw(st.integers(1, 4))):
                if draw(st.integers(0, 4)) == 0:
                    out.append(draw(st.sampled_from(["", "# comment", " " * column + "# c"])))
                value, more = draw(one_line_value(column).filter(lambda found: found[0].strip(" ") and found[0].strip(" ")[0] != "#"))
                out.append(" " * column + "-" + value)
                out += more
            after_block = False
            continue
        if kind == "nested":
            inner = parent + draw(st.integers(1, 4))
            out.append(" " * parent + key + ":" + draw(st.sampled_from(["", "  # map"])))
            out += draw(entries(inner, False))
            after_block = True  # the map may end with a block scalar
            continue
        value, more = draw(block_value(parent) if kind == "block" else one_line_value(parent))
        out.append(" " * parent + key + ":" + value)
        out += more
        after_block = kind == "block"
    return out


@st.composite
def common_documents(draw):
    lines = draw(entries(0, True))
    trailing_comment = draw(st.booleans())
    if trailing_comment:
        lines.append("# trailing comment")
    newline = draw(st.sampled_from(["\n", "\n", "\r\n"]))
    text = newline.join(lines)
    # the last line break may be missing, but not after what looks like a comment or blank (declined: see
    # parse_common)
    if trailing_comment or lines[-1].strip(" ")[:1] in ("", "#") or draw(st.integers(0, 3)):
        text += newline
    return text


@DIFFERENTIAL
@given(common_documents())
@example("description: >-\n  a\n\n  b\nmetadata:\n  k: 'v'\n")
def test_generated_common_frontmatter_takes_the_fast_path_and_agrees(text):
    assert assert_agrees(text), f"declined a document of the common shape: {text!r}"


# --- generated: YAML's corners and near misses, declined or equal --------------------------------------

CORNER_CHARS = VALUE_CHARS + "\t\r\n\x00\x7f\x85\u2028\u2029\ufeff\ufffe\x1b"
CORNER_LINES = [
    "---", "...", "--- x", "%YAML 1.2", "%TAG ! tag:x,1:", "? key", ": value", "- item", "  - item", "-",
    "a: &anchor x", "b: *anchor", "c: !!str x", "d: !local x", "e: [a, b]", "f: {a: b}", "g: |2", "h: >+",
    "i: |-  # c", "j: 'open", 'k: "open', "l: a: b", "m:b", "n :", "o:\tx", "\tp: x", "  q: r", "'s': t",
    '"u": v', "w: x #", "y: 'a'b", 'z: "a"b', "#", "  #", "    ", "   x", "name: a\\", 'name: "\\q"',
    'name: "\\ud800"', 'name: "\\', "k: -", "k: - x", "k: -x", "k: ?x", "k: :x", "k: a #b", "k: a#b",
]


@st.composite
def near_misses(draw):
    """A common document with one to three edits: a character inserted, removed or replaced, a line
    swapped for a corner line, a line re-indented or duplicated."""
    text = draw(common_documents())
    for _ in range(draw(st.integers(1, 3))):
        lines = text.split("\n")
        edit = draw(st.sampled_from(["insert", "delete", "replace", "corner", "indent", "duplicate"]))
        if edit in ("insert", "delete", "replace") and text:
            at = draw(st.integers(0, len(text) - 1))
            char = draw(st.sampled_from(CORNER_CHARS))
            text = {"insert": text[:at] + char + text[at:], "delete": text[:at] + text[at + 1 :],
                    "replace": text[:at] + char + text[at + 1 :]}[edit]
            continue
        at = draw(st.integers(0, max(0, len(lines) - 1)))
        if edit == "corner":
            lines[at:at] = [draw(st.sampled_from(CORNER_LINES))]
        elif edit == "indent" and lines:
            lines[at] = " " * draw(st.integers(1, 3)) + lines[at]
        elif lines:
            lines.insert(at, lines[at])
        text = "\n".join(lines)
    return text


soup = st.lists(
    st.one_of(st.sampled_from(CORNER_LINES), st.text(CORNER_CHARS, max_size=16)), max_size=8
).map("\n".join)


@DIFFERENTIAL
@given(st.one_of(near_misses(), soup))
@example("k: v\n\n  \nj: w\n")
@example("a: x\n  # c\n  y\n")
@example("d: |\n  a\n # c\nk: v\n")
@example("m:\n  a: 0\n\n   0\n ")  # no final line break after spaces: libyaml ends the inner map at them
@example("m:\n  a: 0\n  # c")
# what the one-line regex lets through for the reader to rule out, or reads only with the spaces stripped
@example('a: "x\\"y"\nb: "v"#c\nc: "v"  # c\n')
@example("a: b: c\nd: e\n")
@example("a: b:  # c\n")
@example("a: C# and F#   \nb: x #\nc: y  \n")
def test_corner_cases_are_declined_or_read_exactly_as_ruamel_reads_them(text):
    assert_agrees(text)


# --- the command line on common frontmatter never imports ruamel.yaml -----------------------------------


# Runs the console command in a fresh interpreter and writes, at exit, the ruamel modules it imported.
# The command line's own run (`app.run`, what `main` runs before it ends the process), then the modules
CHECK_AND_LIST_IMPORTS = """
import json, sys
from albedo_skills_ls.cli.app import run
modules_file = sys.argv.pop(1)
code = run(sys.argv[1:])
with open(modules_file, "w") as handle:
    json.dump(sorted(name for name in sys.modules if name.split(".")[0] == "ruamel"), handle)
sys.exit(code)
"""


def check_and_list_ruamel_imports(tmp_path, workspace, home):
    modules_file = tmp_path / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", CHECK_AND_LIST_IMPORTS, str(modules_file), "check", str(workspace), "--home", str(home)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path, env={**os.environ, "HOME": str(home)},
    )
    return done.returncode, json.loads(modules_file.read_text()), done.stdout + done.stderr


def test_a_check_of_common_frontmatter_never_imports_ruamel_yaml(tmp_path):
    workspace, home = tmp_path / "ws", tmp_path / "home"
    home.mkdir()
    root = workspace / ".agents" / "skills"
    write_skill(root, "pdf-tools", "name: pdf-tools\ndescription: >-\n  Fill forms.\n  Extract tables.\n"
                "metadata:\n  author: me\n  version: \"1.0\"\n", "# PDF tools\n")
    write_skill(root, "notes", "name: notes\ndescription: 'Take notes.'\nlicense: MIT\n", "# Notes\n")
    code, modules, output = check_and_list_ruamel_imports(tmp_path, workspace, home)
    assert (code, modules) == (0, []), output

    # the probe sees the import as soon as one file needs ruamel.yaml
    write_skill(root, "anchored", "name: anchored\ndescription: &d x\n", "# A\n")
    code, modules, output = check_and_list_ruamel_imports(tmp_path, workspace, home)
    assert code != 0 and "ruamel.yaml" in modules, output


def test_read_text_of_a_common_skill_gives_the_reference_tree():
    text = "---\nname: demo\ndescription: |\n  Demo.\nmetadata:\n  a: b\n---\n# Body\n"
    read = read_text(text, PATH)
    yaml_text = "".join(text.splitlines(keepends=True)[1:6])
    assert shape(read.frontmatter.root) == reference(yaml_text)[0]
    assert read.diagnostics == ()


# The characters the fast path reads, as the common shape allows them: the line feed, printable ASCII
# and the Unicode YAML treats as ordinary text.
KEPT = re.compile("[\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")


def test_the_characters_sent_to_ruamel_are_exactly_those_not_kept():
    for code in range(0x110000):
        character = chr(code)
        assert bool(_OUTSIDE.match(character)) != bool(KEPT.match(character)), hex(code)
    kept_ascii = {chr(byte) for byte in _PRINTABLE_ASCII_AND_LF}
    assert kept_ascii == {chr(code) for code in range(128) if KEPT.match(chr(code))}
