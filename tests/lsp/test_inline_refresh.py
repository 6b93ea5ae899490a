"""A settings change that alters what the code lenses and inlay hints say (`albedoSkills.hosts`, their
switches) asks the client to ask again (`workspace/codeLens/refresh`, `workspace/inlayHint/refresh`), only
when the client declared it can; other settings changes ask nothing.

The server sends the refresh requests before its `albedoSkills/catalogChanged` announcement of the new
settings, and messages arrive in order: once the announcement is in, every request sent before it is too.
"""

from __future__ import annotations

import pytest
from lsprotocol import types

import rename_world as world

from .harness import CATALOG_CHANGED
from .test_inline_features import inline_caps

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

REFRESHES = (types.WORKSPACE_CODE_LENS_REFRESH, types.WORKSPACE_INLAY_HINT_REFRESH)


def refresh_caps(*, lens: bool, hints: bool) -> types.ClientCapabilities:
    caps = inline_caps()
    assert caps.workspace is not None
    caps.workspace.code_lens = types.CodeLensWorkspaceClientCapabilities(refresh_support=lens)
    caps.workspace.inlay_hint = types.InlayHintWorkspaceClientCapabilities(refresh_support=hints)
    return caps


def record_refreshes(session) -> list[str]:
    asked: list[str] = []
    for method in REFRESHES:

        def answer(params, method=method) -> None:
            asked.append(method)

        session.client.feature(method)(answer)
    return asked


async def change_settings(session, settings: dict) -> None:
    """Send new settings and wait for the server's announcement that it applied them."""
    announced = session.expect(CATALOG_CHANGED)
    session.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"albedoSkills": settings}))
    assert (await announced).reason == "settings"


async def test_choosing_agents_or_switching_a_lens_or_hints_asks_for_both_again(servers, tmp_path):
    workspace, home = world.build(tmp_path)
    session = await servers([workspace], home, caps=refresh_caps(lens=True, hints=True))
    asked = record_refreshes(session)
    await change_settings(session, {"hosts": ["codex"]})
    assert asked == list(REFRESHES)
    await change_settings(session, {"hosts": ["codex"], "inlayHints": False})
    assert asked == list(REFRESHES) * 2
    await change_settings(session, {"hosts": ["codex"], "inlayHints": False, "codeLens": False})
    assert asked == list(REFRESHES) * 3


async def test_settings_the_lenses_and_hints_do_not_read_ask_nothing(servers, tmp_path):
    workspace, home = world.build(tmp_path)
    session = await servers([workspace], home, caps=refresh_caps(lens=True, hints=True))
    asked = record_refreshes(session)
    await change_settings(session, {"folding": False, "logLevel": "debug", "selectionRanges": False})
    assert asked == []


@pytest.mark.parametrize(("lens", "hints"), [(False, False), (True, False), (False, True)])
async def test_only_what_the_client_declared_it_refreshes(servers, tmp_path, lens, hints):
    workspace, home = world.build(tmp_path)
    session = await servers([workspace], home, caps=refresh_caps(lens=lens, hints=hints))
    asked = record_refreshes(session)
    await change_settings(session, {"hosts": ["codex", "claude-code"]})
    assert asked == [method for method, declared in zip(REFRESHES, (lens, hints)) if declared]
