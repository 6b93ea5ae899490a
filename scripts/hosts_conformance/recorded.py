"""The recorded observations: the normalised answers of the live agents on the fixture, committed so that
the comparison with the project's model runs anywhere, offline, with no agent installed.

Written only by `python scripts/hosts_conformance record` (never by a test or by the live step), with the
fixture's digest: a changed fixture makes the recorded file stale, and the test says so.
"""

from __future__ import annotations

import hashlib
import json
import os

from . import fixture

RECORDED_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                             "tests", "hosts_conformance", "recorded_observations.json")


def _case_digest(case: fixture.Case) -> str:
    return hashlib.sha256(json.dumps([case.path, case.text, case.link, case.links_folder]).encode()).hexdigest()[:12]


def case_digests() -> dict[str, str]:
    """Each file's own digest: a recording keeps an earlier one's outcomes only for files left unchanged."""
    return {case.path: _case_digest(case) for case in fixture.cases()}


def fixture_digest() -> str:
    digest = hashlib.sha256(json.dumps(sorted(case_digests().items())).encode())
    digest.update(json.dumps(sorted(fixture.PLUGIN_FILES.items())).encode())
    return digest.hexdigest()[:16]


def load(path: str = RECORDED_PATH) -> dict:
    with open(path, encoding="utf-8") as recorded:
        return json.load(recorded)


def write(observations: dict, path: str = RECORDED_PATH) -> None:
    with open(path, "w", encoding="utf-8") as out:
        json.dump(observations, out, indent=1, sort_keys=True)
        out.write("\n")


def merged(observations: dict, old: dict | None) -> dict:
    """New observations, with the outcomes of an earlier recording of the same agent version kept too, for
    each file whose case is unchanged: an answer seen to vary once stays evidence that it varies."""
    if old is None:
        return observations
    now, before_cases = case_digests(), old.get("cases", {})
    observations["cases"] = now
    for host, found in observations["agents"].items():
        before = old["agents"].get(host)
        if before is None or before["version"] != found["version"]:
            continue
        found["runs"] += before["runs"]
        for path, seen in found["skills"].items():
            earlier = before["skills"].get(path)
            if earlier is None or before_cases.get(path) != now.get(path):
                continue
            outcomes = _outcomes(seen)
            # Varying means another verdict (loads, name): a recording made before descriptions were read
            # has none, and that is not a different answer.
            outcomes += [outcome for outcome in _outcomes(earlier)
                         if _verdict(outcome) not in [_verdict(kept) for kept in outcomes]]
            said = seen.get("said") or earlier.get("said")
            found["skills"][path] = (outcomes[0] if len(outcomes) == 1 else {"outcomes": outcomes}) | {"said": said}
    return observations


def _verdict(outcome: dict) -> tuple:
    return outcome["loads"], outcome["name"]


def _outcomes(seen: dict) -> list[dict]:
    if "outcomes" in seen:
        return list(seen["outcomes"])
    return [{key: seen[key] for key in ("loads", "name", "description") if key in seen}]
