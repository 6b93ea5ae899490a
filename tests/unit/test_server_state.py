"""The server's state objects without a client or pygls (docs/design.md#10-the-server): the sessions
(`lsp/workspaces.py`), each file's diagnostics by its kind (`lsp/findings.py`) and what the client holds
(`lsp/delivery.py`'s `Delivered`). The server over stdio is tested in tests/lsp; these are the rules alone."""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from albedo_skills_ls.lsp.delivery import Delivered, Rendering
from albedo_skills_ls.lsp.findings import Findings
from albedo_skills_ls.lsp.settings import Settings
from albedo_skills_ls.lsp.workspaces import Workspaces


def write_skill(root, name: str, text: str | None = None):
    path = root / name / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(text or f"---\nname: {name}\ndescription: Does {name}.\n---\n# {name}\n")
    return path


def test_sessions_follow_the_folders_and_are_kept_while_nothing_that_matters_changes(tmp_path):
    outer, inner, home = tmp_path / "outer", tmp_path / "outer" / "inner", tmp_path / "home"
    inner.mkdir(parents=True)
    folders = [str(outer), str(inner)]
    settings = Settings(home=str(home))
    workspaces = Workspaces(lambda: folders, lambda: settings)
    assert workspaces.primary().workspace == str(outer)  # built on first use
    first = list(workspaces.sessions)
    assert workspaces.session_for(str(inner / "x.chat.md")) is first[1]  # the deepest folder
    assert workspaces.session_for(str(tmp_path / "elsewhere.md")) is first[0]  # none: the first
    workspaces.rebuild()
    assert workspaces.sessions == first  # same folders, same discovery settings: the same sessions
    settings = replace(settings, log_level="debug")
    workspaces.rebuild()
    assert workspaces.sessions == first  # a setting discovery does not read keeps them
    settings = replace(settings, user_roots=False)
    workspaces.rebuild()
    assert all(new is not old for new, old in zip(workspaces.sessions, first))
    folders = [None]  # what the server hands over for a client without folders
    workspaces.rebuild()
    assert [session.workspace for session in workspaces.sessions] == [None]  # the user roots alone


def test_a_skill_in_a_user_root_is_placed_by_the_session_whose_roots_hold_it(tmp_path):
    home = tmp_path / "home"
    path = write_skill(home / ".agents" / "skills", "shared")
    ws = tmp_path / "ws"
    ws.mkdir()
    workspaces = Workspaces(lambda: [str(ws)], lambda: Settings(home=str(home)))
    workspaces.rebuild()
    assert workspaces.session_placing(str(path)) is workspaces.sessions[0]
    assert workspaces.skill_count() == 1


class Buffer(NamedTuple):
    kind: str | None
    text: str


class Buffers(dict):
    """What Findings reads of a snapshot of the open documents (lsp/buffers.py), as a plain dict by path."""

    def at(self, path):
        return self.get(path)

    def is_open(self, path):
        return path in self

    def kind(self, path):
        return self[path].kind if path in self else None

    def paths(self):
        return list(self)


def test_findings_come_from_the_buffer_the_snapshot_or_nothing(tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    on_disk = write_skill(ws / ".agents" / "skills", "demo")
    settings = Settings(home=str(home))
    workspaces = Workspaces(lambda: [str(ws)], lambda: settings)
    workspaces.rebuild()
    buffers = Buffers()
    findings = Findings(workspaces, lambda: settings)
    assert findings.for_file(str(on_disk), buffers) == ()  # valid on disk
    # the open buffer decides, not the disk
    buffers[str(on_disk)] = Buffer("skill", "---\nname: other\ndescription: d\n---\n")
    assert [d.code for d in findings.for_file(str(on_disk), buffers)] == ["name-mismatch"]
    # a chat buffer's unknown command, against its folder's catalog
    chat = str(ws / "talk.chat.md")
    buffers[chat] = Buffer("chat", "/nosuch please\n")
    assert [d.code for d in findings.for_file(chat, buffers)] == ["unknown-command"]
    assert set(findings.everything(buffers)) == {str(on_disk), chat}
    settings = replace(settings, enable=False)
    assert findings.everything(buffers) == {} and findings.for_file(chat, buffers) == ()


def test_delivered_sends_changes_and_clears_what_went():
    delivered = Delivered()
    delivered.remember("/a", Rendering(("k",), ["item"]))
    delivered.remember("/b", Rendering(("k",), []))
    assert set(delivered.published) == {"/a"}  # a file with nothing is not kept

    class Converter:  # converts by counting: what `refreshed` needs of a real converter
        def refreshed(self, path, found, last):
            rendering = Rendering((found,), list(found))
            return rendering, rendering.items != (last.items if last else [])

    changes = delivered.changes({"/c": ("new",)}, Converter())
    assert changes == [("/a", Rendering(((),), [])), ("/c", Rendering((("new",),), ["new"]))]  # /a cleared
    assert delivered.pulled({"/x": ("d",)}) == {"/x": ("d",)}
    assert delivered.pulled({}) == {"/x": ()}  # reported before, nothing now: an empty report clears it
    assert delivered.pulled({}) == {}
