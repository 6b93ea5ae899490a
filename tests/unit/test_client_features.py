"""`ClientFeatures.of`: the client's nested capabilities read once, from capability objects shaped like
those real clients send (camelCase JSON, structured by lsprotocol as pygls does at `initialize`)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from lsprotocol import converters, types

from albedo_skills_ls.lsp.client import ClientFeatures

CONVERTER = converters.get_converter()


def features(capabilities: dict[str, Any]) -> ClientFeatures:
    return ClientFeatures.of(CONVERTER.structure(capabilities, types.ClientCapabilities))


# Neovim 0.7's built-in client (`vim.lsp.protocol.make_client_capabilities()`), the fields that matter here:
# no configuration, no watchers, no links, no pull diagnostics, no position encodings.
NEOVIM_07 = {
    "window": {"workDoneProgress": True, "showDocument": {"support": False}},
    "workspace": {"workspaceFolders": True, "applyEdit": True, "workspaceEdit": {"resourceOperations": ["rename"]}},
    "textDocument": {
        "synchronization": {"didSave": True, "willSave": False},
        "completion": {"completionItem": {"snippetSupport": False, "documentationFormat": ["markdown", "plaintext"]}},
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
        "publishDiagnostics": {"relatedInformation": True},
        "references": {"dynamicRegistration": False},
        "rename": {"dynamicRegistration": False, "prepareSupport": True},
    },
}
NEOVIM_07["workspace"]["symbol"] = {"dynamicRegistration": False}

# A newer Neovim: UTF-8 preferred, watchers with relative patterns, configuration, and document pull
# diagnostics without workspace pull (so it must still be pushed to).
NEOVIM_010 = {
    "general": {"positionEncodings": ["utf-8", "utf-16", "utf-32"]},
    "window": {"workDoneProgress": True},
    "workspace": {
        "configuration": True,
        "workspaceEdit": {"documentChanges": True},
        "didChangeWatchedFiles": {"dynamicRegistration": True, "relativePatternSupport": True},
    },
    "textDocument": {
        "completion": {"completionItem": {"snippetSupport": True, "documentationFormat": ["markdown", "plaintext"]}},
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
        "diagnostic": {"dynamicRegistration": False},
    },
}
# Neovim 0.10 and 0.11 also declare the completion list defaults they apply (runtime/lua/vim/lsp/protocol.lua)
NEOVIM_010["textDocument"]["completion"]["completionList"] = {
    "itemDefaults": ["editRange", "insertTextFormat", "insertTextMode", "data"]
}
# Neovim 0.11.4's `make_client_capabilities()` for the editing features (printed by running it): resource
# operations without `documentChanges`, code lens without refresh, inlay hints with refresh, line folding.
NEOVIM_011 = {
    **NEOVIM_010,
    "workspace": {
        **NEOVIM_010["workspace"],
        "workspaceEdit": {"resourceOperations": ["rename", "create", "delete"]},
        "symbol": {"dynamicRegistration": False},
        "inlayHint": {"refreshSupport": True},
    },
    "textDocument": {
        **NEOVIM_010["textDocument"],
        "references": {"dynamicRegistration": False},
        "rename": {"dynamicRegistration": True, "prepareSupport": True},
        "codeLens": {"dynamicRegistration": False, "resolveSupport": {"properties": ["command"]}},
        "inlayHint": {"dynamicRegistration": True},
        "foldingRange": {"lineFoldingOnly": True},
    },
}
# Emacs 28's eglot 1.9 (`eglot-client-capabilities`, read in its source): `documentChanges` but no resource
# operations, so a rename that moves a folder is refused with the command to run instead.
EGLOT_19 = {
    "workspace": {"workspaceEdit": {"documentChanges": True}, "symbol": {"dynamicRegistration": False}},
    "textDocument": {"references": {"dynamicRegistration": False}, "rename": {"dynamicRegistration": False}},
}

# VS Code through vscode-languageclient: everything on, pull diagnostics for the workspace with refresh.
VSCODE = {
    "general": {"positionEncodings": ["utf-16"]},
    "window": {"workDoneProgress": True, "showMessage": {}},
    "workspace": {
        "configuration": True,
        "workspaceFolders": True,
        "workspaceEdit": {"documentChanges": True, "resourceOperations": ["create", "rename", "delete"]},
        "didChangeWatchedFiles": {"dynamicRegistration": True, "relativePatternSupport": True},
        "diagnostics": {"refreshSupport": True},
    },
    "textDocument": {
        "completion": {
            "completionItem": {"snippetSupport": True, "documentationFormat": ["markdown", "plaintext"]},
            "completionList": {
                "itemDefaults": ["commitCharacters", "editRange", "insertTextFormat", "insertTextMode", "data"]
            },
        },
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
        "documentLink": {"tooltipSupport": True},
        "diagnostic": {"dynamicRegistration": True, "relatedDocumentSupport": False},
        "rename": {"prepareSupport": True},
        "references": {},
        "codeLens": {},
        "inlayHint": {},
        "foldingRange": {"lineFoldingOnly": True},
        # vscode-languageclient's SelectionRangeFeature (lib/common/selectionRange.js, read in its source)
        "selectionRange": {"dynamicRegistration": True},
    },
}
VSCODE["workspace"]["workspaceEdit"]["changeAnnotationSupport"] = {"groupsOnLabel": True}
VSCODE["workspace"]["fileOperations"] = {"willRename": True, "didRename": True}
VSCODE["workspace"]["symbol"] = {}
VSCODE["workspace"]["codeLens"] = {"refreshSupport": True}
VSCODE["workspace"]["inlayHint"] = {"refreshSupport": True}


def test_a_client_that_declares_nothing_gets_the_protocol_defaults():
    assert features({}) == ClientFeatures()
    assert ClientFeatures().position_encoding == types.PositionEncodingKind.Utf16
    assert not any(value for name, value in vars(ClientFeatures()).items() if name != "position_encoding")


def test_neovim_07():
    assert features(NEOVIM_07) == ClientFeatures(
        completion_markdown=True,
        hover_markdown=True,
        hierarchical_symbols=True,
        rename=True,
        prepare_rename=True,
        rename_files=True,
        references=True,
        workspace_symbols=True,
        work_done_progress=True,
    )


def test_newer_neovim_is_pushed_to_and_counts_in_utf8():
    assert features(NEOVIM_010) == ClientFeatures(
        snippets=True,
        completion_markdown=True,
        completion_default_range=True,
        hover_markdown=True,
        hierarchical_symbols=True,
        versioned_edits=True,
        configuration=True,
        watcher_registration=True,
        relative_watcher_patterns=True,
        work_done_progress=True,
        position_encoding=types.PositionEncodingKind.Utf8,
    )


def test_neovim_011_renames_files_without_declaring_document_changes():
    found = features(NEOVIM_011)
    assert (found.rename, found.prepare_rename, found.rename_files, found.references, found.workspace_symbols) == (
        True, True, True, True, True)
    assert (found.code_lens, found.code_lens_refresh, found.inlay_hints, found.inlay_hint_refresh) == (True, False, True, True)
    assert (found.folding, found.selection_ranges, found.change_annotations, found.will_rename_files) == (True, False, False, False)


@pytest.mark.parametrize(("version", "renames"), [("0.7.2", False), ("0.10.4", False), ("0.11.0", True), ("0.11.4", True),
                                                 ("0.12.0-dev-1234", True)])
def test_neovim_before_011_cannot_rename_a_folder(version: str, renames: bool) -> None:
    capabilities = CONVERTER.structure(NEOVIM_011, types.ClientCapabilities)
    neovim = types.ClientInfo(name="Neovim", version=version)
    assert ClientFeatures.of(capabilities, neovim).rename_files is renames
    assert ClientFeatures.of(capabilities, types.ClientInfo(name="Other", version=version)).rename_files is True


def test_eglot_19_renames_text_but_not_files():
    assert features(EGLOT_19) == ClientFeatures(
        versioned_edits=True, rename=True, references=True, workspace_symbols=True
    )


def test_vscode_pulls_and_has_everything():
    assert features(VSCODE) == ClientFeatures(
        pull_diagnostics=True,
        diagnostic_refresh=True,
        snippets=True,
        completion_markdown=True,
        completion_default_range=True,
        hover_markdown=True,
        hierarchical_symbols=True,
        versioned_edits=True,
        link_tooltips=True,
        rename=True,
        prepare_rename=True,
        rename_files=True,
        change_annotations=True,
        will_rename_files=True,
        references=True,
        workspace_symbols=True,
        code_lens=True,
        code_lens_refresh=True,
        inlay_hints=True,
        inlay_hint_refresh=True,
        folding=True,
        selection_ranges=True,
        configuration=True,
        watcher_registration=True,
        relative_watcher_patterns=True,
        work_done_progress=True,
        position_encoding=types.PositionEncodingKind.Utf16,
    )


def test_workspace_pull_alone_is_not_pull_and_refresh_needs_its_flag():
    only_workspace = {"workspace": {"diagnostics": {"refreshSupport": True}}}
    assert features(only_workspace).pull_diagnostics is False
    no_refresh = {"textDocument": {"diagnostic": {}}, "workspace": {"diagnostics": {}}}
    assert features(no_refresh) == ClientFeatures(pull_diagnostics=True)


def test_markup_is_decided_per_feature():
    hover_only = {"textDocument": {"hover": {"contentFormat": ["markdown"]}, "completion": {"completionItem": {
        "documentationFormat": ["plaintext"]}}}}
    assert features(hover_only) == ClientFeatures(hover_markdown=True)


def test_the_first_encoding_the_client_prefers_wins_and_an_unknown_one_falls_back_to_utf16():
    assert features({"general": {"positionEncodings": ["utf-32", "utf-8"]}}).position_encoding == "utf-32"
    assert features({"general": {"positionEncodings": ["latin-1"]}}).position_encoding == "utf-16"


def test_completion_list_defaults_other_than_the_edit_range_are_not_enough():
    declared = {"textDocument": {"completion": {"completionList": {"itemDefaults": ["insertTextFormat", "data"]}}}}
    assert features(declared) == ClientFeatures()
    declared["textDocument"]["completion"]["completionList"]["itemDefaults"].append("editRange")
    assert features(declared) == ClientFeatures(completion_default_range=True)


def test_watchers_without_dynamic_registration_are_not_registered():
    static = {"workspace": {"didChangeWatchedFiles": {"relativePatternSupport": True}}}
    assert features(static) == ClientFeatures(relative_watcher_patterns=True)


def test_the_value_is_frozen():
    value = features(VSCODE)
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.snippets = False  # type: ignore[misc]
