"""What the client can do, resolved once at `initialize` from its nested `ClientCapabilities`.

Handlers read `ls.client.snippets` rather than walking `capabilities.text_document.completion...` with a
`None` check at every level: each capability the server acts on is named here once, with the rule that
decides it. Before `initialize` (and for a client that declares nothing) every feature is off and positions
are UTF-16, the protocol's defaults.
"""

from __future__ import annotations

from dataclasses import dataclass

from lsprotocol import types
from pygls.capabilities import ServerCapabilitiesBuilder


@dataclass(frozen=True)
class ClientFeatures:
    # diagnostics: pull only when the client can pull for unopened files too; otherwise everything is pushed
    pull_diagnostics: bool = False
    diagnostic_refresh: bool = False  # `workspace/diagnostic/refresh` after a reload
    # completion and hover
    snippets: bool = False
    completion_markdown: bool = False  # completion item documentation rendered as Markdown
    # `CompletionList.itemDefaults.editRange` (LSP 3.17): one range for every item instead of a textEdit each.
    # VS Code and Neovim 0.10+ declare it; Neovim 0.7 and Emacs 28's eglot 1.9 do not.
    completion_default_range: bool = False
    # `insertTextMode: asIs` on the items: their text is exact. Without it lsp-mode 8.0 re-indents what it
    # inserts with the major mode's indent function (markdown-mode 2.5's never returned on a chat line).
    completion_as_is: bool = False
    hover_markdown: bool = False
    # other editor features
    hierarchical_symbols: bool = False
    versioned_edits: bool = False  # `WorkspaceEdit.documentChanges` (edits tied to the buffer's version)
    link_tooltips: bool = False
    # skills as a language: each feature is offered only to a client that declares it
    rename: bool = False  # `textDocument/rename`
    prepare_rename: bool = False
    rename_files: bool = False  # the client can rename a folder (`resourceOperations` holds `rename`, see `of`)
    change_annotations: bool = False  # `WorkspaceEdit.changeAnnotations` (edits that ask for confirmation)
    will_rename_files: bool = False  # `workspace/willRenameFiles`
    references: bool = False
    workspace_symbols: bool = False
    code_lens: bool = False
    code_lens_refresh: bool = False  # `workspace/codeLens/refresh` after a change of what the lenses say
    inlay_hints: bool = False
    inlay_hint_refresh: bool = False  # `workspace/inlayHint/refresh`, likewise
    # every fold is whole lines, so `lineFoldingOnly` changes nothing and is not read
    folding: bool = False
    selection_ranges: bool = False  # `textDocument/selectionRange` (Expand Selection)
    # workspace
    configuration: bool = False  # `workspace/configuration`
    watcher_registration: bool = False  # dynamic registration of `workspace/didChangeWatchedFiles`
    relative_watcher_patterns: bool = False
    work_done_progress: bool = False  # server-initiated `window/workDoneProgress/create`
    position_encoding: str = types.PositionEncodingKind.Utf16

    @classmethod
    def of(cls, capabilities: types.ClientCapabilities, client: types.ClientInfo | None = None) -> ClientFeatures:
        text_document = capabilities.text_document
        workspace = capabilities.workspace
        window = capabilities.window

        completion = text_document.completion if text_document else None
        item = completion.completion_item if completion else None
        completion_list = completion.completion_list if completion else None
        insert_modes = item.insert_text_mode_support if item else None
        hover = text_document.hover if text_document else None
        symbols = text_document.document_symbol if text_document else None
        links = text_document.document_link if text_document else None
        pulled = workspace.diagnostics if workspace else None
        edit = workspace.workspace_edit if workspace else None
        watched = workspace.did_change_watched_files if workspace else None
        rename = text_document.rename if text_document else None
        operations = workspace.file_operations if workspace else None

        return cls(
            pull_diagnostics=bool(text_document and text_document.diagnostic and pulled is not None),
            diagnostic_refresh=bool(pulled and pulled.refresh_support),
            snippets=bool(item and item.snippet_support),
            completion_markdown=types.MarkupKind.Markdown in ((item and item.documentation_format) or ()),
            completion_default_range="editRange" in ((completion_list and completion_list.item_defaults) or ()),
            completion_as_is=bool(insert_modes and types.InsertTextMode.AsIs in insert_modes.value_set),
            hover_markdown=types.MarkupKind.Markdown in ((hover and hover.content_format) or ()),
            hierarchical_symbols=bool(symbols and symbols.hierarchical_document_symbol_support),
            versioned_edits=bool(edit and edit.document_changes),
            link_tooltips=bool(links and links.tooltip_support),
            rename=rename is not None,
            prepare_rename=bool(rename and rename.prepare_support),
            # Resource operations exist only inside `documentChanges`, so declaring them is enough: Neovim 0.7 to
            # 0.11 declare `resourceOperations` without `documentChanges` and apply both.
            rename_files=bool(edit and types.ResourceOperationKind.Rename in (edit.resource_operations or ()))
            and not renames_no_folder(client),
            change_annotations=bool(edit and edit.change_annotation_support is not None),
            will_rename_files=bool(operations and operations.will_rename),
            references=bool(text_document and text_document.references is not None),
            workspace_symbols=bool(workspace and workspace.symbol is not None),
            code_lens=bool(text_document and text_document.code_lens is not None),
            code_lens_refresh=bool(workspace and workspace.code_lens and workspace.code_lens.refresh_support),
            inlay_hints=bool(text_document and text_document.inlay_hint is not None),
            inlay_hint_refresh=bool(workspace and workspace.inlay_hint and workspace.inlay_hint.refresh_support),
            folding=bool(text_document and text_document.folding_range is not None),
            selection_ranges=bool(text_document and text_document.selection_range is not None),
            configuration=bool(workspace and workspace.configuration),
            watcher_registration=bool(watched and watched.dynamic_registration),
            relative_watcher_patterns=bool(watched and watched.relative_pattern_support),
            work_done_progress=bool(window and window.work_done_progress),
            # the choice pygls made for its workspace, so our conversions and its documents agree
            position_encoding=ServerCapabilitiesBuilder.choose_position_encoding(capabilities),
        )


# Neovim 0.7.2 declares `rename` but its `vim.lsp.util.rename` writes the old path as a buffer first, which
# fails on a folder (E502) after the text edits were applied: half a rename (run here). 0.11.4 renames a
# folder and the buffers under it (run here). 0.8 to 0.10 were not run: treated as 0.7, refused with the
# command to run instead.
FIRST_NEOVIM_RENAMING_FOLDERS = (0, 11)


def renames_no_folder(client: types.ClientInfo | None) -> bool:
    """Whether a client that declares file renames is known to fail on a folder."""
    if client is None or client.name != "Neovim" or not client.version:
        return False
    try:
        version = tuple(int(part) for part in client.version.split("-", 1)[0].split(".")[:2])
    except ValueError:
        return False
    return version < FIRST_NEOVIM_RENAMING_FOLDERS
