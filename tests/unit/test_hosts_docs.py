"""docs/hosts.md describes each agent from the very models the verdicts use."""

from pathlib import Path

from albedo_skills_ls.skills.hosts import HOST_IDS
from albedo_skills_ls.skills.hosts.docs import BEGIN, END, generated

DOCS = Path(__file__).resolve().parents[2] / "docs" / "hosts.md"


def test_the_agents_section_is_the_models_rendered():
    text = DOCS.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END) + 1
    assert text[start:end] == generated(), "run `python -m albedo_skills_ls.skills.hosts.docs` into docs/hosts.md"
    for host_id in HOST_IDS:
        assert f"### `{host_id}`" in text[start:end]
