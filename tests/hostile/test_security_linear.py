"""No input makes the security reading super-linear: one adversarial line per expression of
albedo_skills_ls/skills/security/, about 1 MiB (what is read of one file), built to nearly match it again and
again. A scan restarting a long match at every position would take minutes to hours on these; a linear one
finishes in a few seconds. `finishes` is a hang guard, not a timing assertion."""

from __future__ import annotations

import pytest

from albedo_skills_ls.skills.core.limits import MAX_SECURITY_FILE_BYTES
from albedo_skills_ls.skills.security import scan_text

from .guard import finishes

SIZE = MAX_SECURITY_FILE_BYTES - 4096


def _repeat(unit: str) -> str:
    return unit * (SIZE // len(unit.encode()))


NEAR_MATCHES = {
    # hidden.py
    "zero-width-in-words": _repeat("a\u200b"),
    "lookalike-letters": _repeat("a\u0430"),
    "selectors": _repeat("\ufe00"),
    "tags-after-flags": _repeat("\U0001f3f4\U000e0067"),
    # fetch_run.py
    "downloads-without-pipe": _repeat("curl https://x "),
    "pipes-without-download": _repeat("| sh "),
    "download-then-pipes": "curl https://example.invalid/x " + _repeat("| s "),
    "evals": _repeat("eval $(curl "),
    "saved-names": _repeat("wget https://example.invalid/ab ab "),
    "path-runs": _repeat("; ./ab "),
    "chmods": _repeat("chmod +x a "),
    "continuations": _repeat("curl \\\n"),
    # payloads.py
    "short-base64-runs": _repeat("QUFB" * 9 + "QUF "),
    "one-base64-run": _repeat("QUFB"),
    "hex-escapes": _repeat("\\x41"),
    "hex-run": _repeat("41"),
    # secrets.py
    "secret-name-runs": "$" + _repeat("TOKEN_"),
    "secret-names": _repeat("$A_TOKEN_"),
    "dotenv-paths": _repeat("cat a/.env/"),
    "secret-paths": _repeat("tar ~/.ssh/id_a "),
    "upload-flags": _repeat("curl -d @"),
    "collector-hosts": "https://" + _repeat("a."),
    "dns-lookups": _repeat("dig a$(x)"),
    "dns-long-name": "dig " + _repeat("a."),
    "restmethod": "invoke-restmethod " + _repeat("x"),
    # override.py and the warning words
    "override-prefixes": _repeat("ignore all of the "),
    "hide-prefixes": _repeat("do not tell the "),
    "consent-prefixes": _repeat("without asking for "),
    "pretend-prefixes": _repeat("pretend to be "),
    "warning-words": _repeat("never "),
}


def read(text: str) -> None:
    scan_text("/hostile/demo/scripts/a.sh", text)


def read_skill_file(text: str) -> None:
    scan_text("/hostile/demo/SKILL.md", "---\nname: demo\ndescription: d\nallowed-tools: " + text + "\n---\n")


@pytest.mark.parametrize("shape", sorted(NEAR_MATCHES))
def test_each_security_expression_is_linear(shape: str) -> None:
    finishes(read, NEAR_MATCHES[shape])


@pytest.mark.parametrize("line", ["a(" * 30_000, "Bash(" + "*" * 60_000, "Bash " * 12_000])
def test_allowed_tools_reading_is_linear(line: str) -> None:
    finishes(read_skill_file, line)
