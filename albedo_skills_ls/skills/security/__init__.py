"""Stage 7, the security reading of a skill: what its text and bundled files would have the model or a script do.

`scan_skill` reads a skill folder (SKILL.md and every file it bundles, within the bounds of files.py);
`scan_text` reads one text, such as an open editor buffer. Both only read: nothing is run, fetched or
decoded past a bound. Each finding is a `security-*` code of the registry (codes.py) with the file, the
exact range, what the text does and what to check. The detectors, one family per module:

- hidden.py: invisible and deceptive characters (`security-hidden-text`);
- fetch_run.py: code downloaded and run in one step (`security-fetch-and-run`);
- payloads.py: encoded scripts and executables (`security-encoded-payload`);
- secrets.py: credentials read, data sent out (`security-credential-read`, `security-exfiltration`; the pair
  in one skill is `security-credential-exfiltration`, decided here across files);
- override.py: text that turns the model against its user (`security-model-override`);
- instructions.py (with sentences.py): prose read as sentences, the instructions against the user by their
  shape: send data with the agent's own tools or a rendered address (`security-agent-exfiltration`), report
  an outcome unconditionally (`security-false-report`), hide a step (`security-model-override`), read a
  credential the description gives no purpose for (`security-credential-instruction`);
- python_script.py (with python_flow.py): a bundled Python script parsed (never run), a secret followed to
  the network or a command (`security-credential-exfiltration`), a download followed to `exec`
  (`security-fetch-and-run`);
- js_script.py (with js_flow.py): a bundled JavaScript or TypeScript script parsed (tree-sitter, never run),
  the same flows as Python's (`security-credential-exfiltration`, `security-fetch-and-run`);
- shell_flow.py: shell scripts and shell blocks parsed (tree-sitter-bash), a download followed to where it
  is run however its address or file name is built (`security-fetch-and-run`); with shell_secrets.py, a
  secret followed to a command that sends it (`security-credential-exfiltration`);
- destinations.py: an upload to the service the skill is for is information naming where it goes;
- tools.py: `allowed-tools` granting an unrestricted shell (`security-broad-tools`, SKILL.md only);
- files.py: what is read, bundled binaries and what was not read (`security-bundled-binary`,
  `security-not-fully-read`).
Silencing a finding (markers, settings, baselines) happens where findings are shown, not here.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from itertools import islice

from ..core import codes, security_codes
from ..core.limits import MAX_SECURITY_FINDINGS_PER_FILE, MAX_SECURITY_SEARCHED_TOGETHER_CHARS
from ..core.model import INFORMATION, Diagnostic, Related
from ..document.skill_file import SKILL_FILE
from . import (
    destinations, fetch_run, hidden, instructions, js_script, override, payloads, python_script, secrets, shell_flow,
    tools,
)
from . import text as text_module
from .files import Reading, ReadFile, bounded_text
from .prefilter import Expression, needles_of
from .text import BUNDLED, SKILL, FileKind, Text

__all__ = ["detector_expressions", "findings", "kind_of", "needles_module", "scan_skill", "scan_text"]


def kind_of(path: str) -> FileKind:
    """SKILL for a file named SKILL.md (its frontmatter is read for `allowed-tools`), BUNDLED otherwise."""
    return SKILL if os.path.basename(path) == SKILL_FILE else BUNDLED


def _bounded(found: Iterable[Diagnostic], path: str) -> Iterator[Diagnostic]:
    """At most MAX_SECURITY_FINDINGS_PER_FILE findings of one family, then one saying that more exist."""
    kept = list(islice(found, MAX_SECURITY_FINDINGS_PER_FILE + 1))
    yield from kept[:MAX_SECURITY_FINDINGS_PER_FILE]
    if len(kept) > MAX_SECURITY_FINDINGS_PER_FILE:
        last = kept[-1]
        yield codes.CODES[last.code].at(
            path,
            f"more than {MAX_SECURITY_FINDINGS_PER_FILE} `{last.code}` findings in this file: only the first "
            f"{MAX_SECURITY_FINDINGS_PER_FILE} are listed; the next one is here",
            last.range,
            severity=last.severity,  # an information finding's overflow stays information
        )


def findings(text: Text) -> list[Diagnostic]:
    """Every detector family over one text, as given (the callers bound how much text that is)."""
    found: list[Diagnostic] = []
    families = [
        hidden.scan, fetch_run.scan, payloads.scan, secrets.reads, secrets.sends, override.scan, python_script.scan,
        js_script.scan,
    ]
    if text.kind == SKILL:
        families.append(tools.scan)
    for family in families:
        found.extend(_bounded(family(text), text.path))
    found.extend(_bounded(_new_runs(shell_flow.scan(text), found), text.path))
    found.extend(_bounded(_unsaid(instructions.scan(text), found), text.path))
    return found


def _unsaid(sentences: Iterable[Diagnostic], found: list[Diagnostic]) -> Iterator[Diagnostic]:
    """The sentence reading's findings that the phrase reading (override.py) did not already make on the same
    lines with the same code (one finding an instruction)."""
    said = {(d.code, d.range.start.line) for d in found}
    for finding in sentences:
        lines = range(finding.range.start.line, finding.range.end.line + 1)
        if not any((finding.code, line) in said for line in lines):
            yield finding


def _new_runs(runs: Iterable[Diagnostic], found: list[Diagnostic]) -> Iterator[Diagnostic]:
    """The shell flow's runs whose download the text reading did not already flag (one finding a flow)."""
    flagged = {d.range.start.line for d in found if d.code == security_codes.SECURITY_FETCH_AND_RUN.id}
    for run in runs:
        if not run.related or run.related[0].range.start.line not in flagged:
            yield run


def _theft(found: list[Diagnostic]) -> list[Diagnostic]:
    """`security-credential-exfiltration` when one skill reads a credential and sends data out: on the first
    sending, pointing at the read. An environment variable named like a key counts only on the sending line
    itself (sending the skill's own key to its own service is how keys are used)."""
    if any(d.code == security_codes.SECURITY_CREDENTIAL_EXFILTRATION.id for d in found):
        return []  # a flow followed through a script (python_flow.py) already says it, at its sink
    reads = [d for d in found if d.code == security_codes.SECURITY_CREDENTIAL_READ.id]
    sends = [d for d in found if d.code == security_codes.SECURITY_EXFILTRATION.id]
    for send in sends:
        read = next(
            (
                r for r in reads
                if r.severity != INFORMATION or (r.path == send.path and r.range.start.line == send.range.start.line)
            ),
            None,
        )
        if read is not None:
            same_line = read.path == send.path and read.range.start.line == send.range.start.line
            where = "on the same line" if same_line else f"at {read.path}:{read.range.start.line + 1}"
            return [security_codes.SECURITY_CREDENTIAL_EXFILTRATION.at(
                send.path,
                f"this skill reads credentials ({where}) and sends data out here: together, the shape of stealing "
                "secrets. Read both places and make sure the secret is not what is sent",
                send.range,
                (Related(read.path, f"the credential read: {read.message}", read.range),),
            )]
    return []


def scan_text(path: str, text: str, kind: FileKind | None = None) -> tuple[Diagnostic, ...]:
    """Findings for one text (an open buffer): every family, and the pair within this text alone.
    `kind` defaults to what the file name says (`kind_of`). Like a file on disk, at most
    `MAX_SECURITY_FILE_BYTES` of it are read, and a finding says where the reading stopped."""
    read, note = bounded_text(path, text)
    whole = Text(path, read, kind or kind_of(path))
    found = instructions.purpose_named(findings(whole), instructions.descriptions([whole]))
    found.extend(_theft(found))
    if note is not None:
        found.append(note)
    return tuple(sorted(found, key=lambda d: d.sort_key))


def scan_skill(
    folder: str | os.PathLike[str], display_root: str | os.PathLike[str] | None = None
) -> tuple[Diagnostic, ...]:
    """Findings for a skill folder: SKILL.md and every file it bundles, read within the bounds (files.py),
    and what could not be read. Paths are `display_root` (default: `folder` as given) joined with the
    file's path inside the skill, as discovery spells `SKILL.md`'s path."""
    reading = Reading(os.fspath(folder), os.fspath(display_root if display_root is not None else folder))
    found: list[Diagnostic] = []
    read: list[Text] = []  # within the reading's budget (files.py): where uploads go is decided over all of them
    for texts in _searched_together(reading.files()):
        for text in texts:
            found.extend(findings(text))
        read.extend(texts)
    found.extend(_theft(found))
    found = destinations.to_own_service(found, read)
    found = instructions.purpose_named(found, instructions.descriptions(read))
    found.extend(reading.notes)
    return tuple(sorted(found, key=lambda d: d.sort_key))


def _searched_together(files: Iterable[ReadFile]) -> Iterator[list[Text]]:
    """The skill's files as texts, in groups of at most `MAX_SECURITY_SEARCHED_TOGETHER_CHARS` characters
    searched together (text.py): every file of a usual skill in one group, and never more text held at once
    than the bound (a file larger than it is a group of its own)."""
    group: list[Text] = []
    size = 0
    for read in files:
        if group and size + len(read.text) > MAX_SECURITY_SEARCHED_TOGETHER_CHARS:
            Text.search_together(group)
            yield group
            group, size = [], 0
        group.append(Text(read.path, read.text, kind_of(read.rel) if "/" not in read.rel else BUNDLED))
        size += len(read.text)
    if group:
        Text.search_together(group)
        yield group


def detector_expressions() -> list[Expression]:
    """Every expression the detector modules hold (at their top level, or in a tuple there), each once."""
    found: dict[int, Expression] = {}
    for module in (text_module, hidden, fetch_run, payloads, secrets, override, tools):
        for value in vars(module).values():
            items = [value] if not isinstance(value, tuple) else [
                inner for item in value for inner in (item if isinstance(item, tuple) else (item,))
            ]
            found.update((id(item), item) for item in items if isinstance(item, Expression))
    return list(found.values())


def needles_module() -> str:
    """The text of needles.py: every detector expression's needles, derived."""
    lines = [
        '"""The needles of every detector expression, derived by `prefilter.needles_of`: generated (by',
        "`needles_module` in security/__init__.py), because parsing some thirty expressions at every start cost",
        "more than compiling them. Regenerate with",
        "`python -c 'from albedo_skills_ls.skills.security import needles_module as m; print(m(), end=\"\")'",
        "> albedo_skills_ls/skills/security/needles.py`;",
        "tests/security/test_prefilter.py fails when this differs from the derivation. An expression missing",
        'here is derived when first needed."""',
        "",
        "NEEDLES: dict[tuple[str | bytes, int], tuple[str, ...] | None] = {",
    ]
    seen = set()
    for expression in detector_expressions():
        key = (expression.pattern, int(expression.flags))
        if key not in seen:
            seen.add(key)
            lines.append(f"    {key!r}: {needles_of(*key)!r},")
    lines.append("}")
    return "\n".join(lines) + "\n"
