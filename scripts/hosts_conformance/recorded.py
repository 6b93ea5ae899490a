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


def fixture_digest() -> str:
    digest = hashlib.sha256()
    for case in fixture.cases():
        digest.update(json.dumps([case.path, case.text, case.link, case.links_folder]).encode())
    return digest.hexdigest()[:16]


def load(path: str = RECORDED_PATH) -> dict:
    with open(path, encoding="utf-8") as recorded:
        return json.load(recorded)


def write(observations: dict, path: str = RECORDED_PATH) -> None:
    with open(path, "w", encoding="utf-8") as out:
        json.dump(observations, out, indent=1, sort_keys=True)
        out.write("\n")
