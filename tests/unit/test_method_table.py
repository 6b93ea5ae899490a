"""The editor features in one table (lsp/methods.py): every method the server answers is an entry there or one
of the core's own, an answer reads a `Request` (never the server), and a wrong entry is refused when the
table is built."""

from __future__ import annotations

import inspect

import pytest
from lsprotocol import types

from albedo_skills_ls.lsp.app import create_server
from albedo_skills_ls.lsp.dispatch import NO_DOCUMENT, SKILL, Method
from albedo_skills_ls.lsp.methods import CORE_METHODS, METHODS

# a client declaring every optional feature, and one declaring none
EVERYTHING = {
    "textDocument": {
        "references": {}, "rename": {"prepareSupport": True}, "codeLens": {}, "inlayHint": {},
        "foldingRange": {}, "selectionRange": {},
    },
    "workspace": {"symbol": {}, "fileOperations": {"willRename": True}},
}


def registered_after_initialize(capabilities: dict) -> set[str]:
    """The methods a real server registers once `initialize` read these client capabilities."""
    server = create_server()
    server.protocol.writer = None  # nothing is sent: no client here
    params = types.InitializeParams(capabilities=server.protocol._converter.structure(capabilities,
                                                                                      types.ClientCapabilities))
    steps = server.protocol.lsp_initialize(params)
    handler, args, _ = next(steps)
    handler(*args)
    try:
        steps.send(None)
    except StopIteration:
        pass
    features = set(server.protocol.fm.features)
    if server.protocol.fm.commands:  # `workspace/executeCommand`'s commands, registered by commands.py
        features.add(types.WORKSPACE_EXECUTE_COMMAND)
    return features


def test_every_method_the_server_answers_is_in_the_table():
    table = {method.name for method in METHODS}
    always = {method.name for method in METHODS if method.declared is None}
    core_pushed = set(CORE_METHODS) - {types.TEXT_DOCUMENT_DIAGNOSTIC, types.WORKSPACE_DIAGNOSTIC}  # pull only
    assert registered_after_initialize(EVERYTHING) == table | core_pushed
    assert registered_after_initialize({}) == always | core_pushed


def test_a_pulling_client_gets_the_core_s_pulled_diagnostics():
    pulled = registered_after_initialize({"textDocument": {"diagnostic": {}}, "workspace": {"diagnostics": {}}})
    assert {types.TEXT_DOCUMENT_DIAGNOSTIC, types.WORKSPACE_DIAGNOSTIC} <= pulled


def test_every_answer_reads_a_request_not_the_server():
    for method in METHODS:
        for kind, answer in method.answers.items():
            parameters = list(inspect.signature(answer).parameters.values())
            assert parameters[0].annotation == "Request", f"{method.name} ({kind}): {answer.__qualname__}"
            assert len(parameters) == (2 if kind == NO_DOCUMENT else 3), f"{method.name}: (request, [document,] params)"


def test_an_entry_naming_no_setting_or_client_flag_is_refused():
    def answer(request, document, params):
        return None

    with pytest.raises(ValueError, match="switch 'foldng' must name a field of Settings"):
        Method("textDocument/foldingRange", {SKILL: answer}, switch="foldng")
    with pytest.raises(ValueError, match="declared 'foldng' must name a field of ClientFeatures"):
        Method("textDocument/foldingRange", {SKILL: answer}, declared="foldng")
    with pytest.raises(ValueError, match="answers must be keyed by"):
        Method("textDocument/foldingRange", {"markdown": answer})
    with pytest.raises(ValueError, match="NO_DOCUMENT alone"):
        Method("workspace/symbol", {NO_DOCUMENT: answer, SKILL: answer})
