"""The editor features' methods, in one table: each LSP method, what answers it for which open document, and
when it is offered (dispatch.py's `Method` says what each field means).

A new feature is an answer in its own module and one entry here (ARCHITECTURE.md's recipe); the answers take
the `Request` the dispatcher took, never the server. The methods that change what the server holds or when it
computes are the server core's own, registered by `lifecycle.py` (initialize, settings, folders, watched
files), `diagnostics.py` (the document sync and pulled diagnostics) and `commands.py`
(`workspace/executeCommand`); `CORE_METHODS` names them, so this module lists every method the server answers.
"""

from __future__ import annotations

from lsprotocol import types

from . import (
    actions,
    chat,
    completion,
    find_references,
    folding,
    hover,
    inlay_hints,
    lens,
    links,
    rename,
    selection_ranges,
    symbols,
    workspace_symbols,
)
from .dispatch import BUNDLED, CHAT, INSTRUCTIONS, NO_DOCUMENT, SKILL, Method

# the three kinds a skill's name is used in: its own `name:`, a `/name` in a chat buffer or an agent's file
_MENTIONING = (SKILL, CHAT, INSTRUCTIONS)

METHODS: tuple[Method, ...] = (
    # offered to every client
    Method(types.TEXT_DOCUMENT_COMPLETION, {SKILL: completion.skill_items, CHAT: chat.completion_items},
           otherwise=[], options=types.CompletionOptions(trigger_characters=completion.TRIGGER_CHARACTERS)),
    Method(types.TEXT_DOCUMENT_HOVER,
           {SKILL: hover.skill_hover, CHAT: chat.hover, BUNDLED: hover.security_hover}, untitled=True),
    Method(types.TEXT_DOCUMENT_CODE_ACTION, dict.fromkeys(_MENTIONING, actions.code_actions), otherwise=[],
           options=types.CodeActionOptions(code_action_kinds=[actions.QUICK_FIX], resolve_provider=False)),
    Method(types.TEXT_DOCUMENT_DOCUMENT_LINK, {SKILL: links.skill_links}, otherwise=[],
           options=types.DocumentLinkOptions(resolve_provider=False)),
    Method(types.TEXT_DOCUMENT_DEFINITION, {SKILL: links.reference_definition, CHAT: chat.definition}),
    Method(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, {SKILL: symbols.skill_symbols}, otherwise=[], untitled=True),
    # offered only to the clients that declare them, each with its off switch
    Method(types.TEXT_DOCUMENT_REFERENCES, dict.fromkeys(_MENTIONING, find_references.references), untitled=True,
           switch="references", declared="references"),
    Method(types.TEXT_DOCUMENT_RENAME, dict.fromkeys(_MENTIONING, rename.rename), untitled=True,
           switch="rename", declared="rename",
           client_options=lambda client: types.RenameOptions(prepare_provider=client.prepare_rename)),
    Method(types.TEXT_DOCUMENT_PREPARE_RENAME, dict.fromkeys(_MENTIONING, rename.prepare_rename), untitled=True,
           switch="rename", declared=lambda client: client.rename and client.prepare_rename),
    Method(types.WORKSPACE_WILL_RENAME_FILES, {NO_DOCUMENT: rename.will_rename_files},
           switch="rename", declared="will_rename_files", options=rename.FOLDER_RENAMES),
    # VS Code asks as soon as Go to Symbol in Workspace opens, often while the first discovery still runs; an
    # empty answer then reads "No matching workspace symbols" and is not asked again until the query changes:
    # the answer waits for the catalog, as the commands do
    Method(types.WORKSPACE_SYMBOL, {NO_DOCUMENT: workspace_symbols.workspace_symbol},
           switch="workspace_symbols", declared="workspace_symbols", after_discovery=True),
    Method(types.TEXT_DOCUMENT_CODE_LENS, {SKILL: lens.code_lens}, untitled=True,
           switch="code_lens", declared="code_lens", options=types.CodeLensOptions(resolve_provider=False)),
    Method(types.TEXT_DOCUMENT_INLAY_HINT, {SKILL: inlay_hints.inlay_hint}, untitled=True,
           switch="inlay_hints", declared="inlay_hints", options=types.InlayHintOptions(resolve_provider=False)),
    Method(types.TEXT_DOCUMENT_FOLDING_RANGE, {SKILL: folding.folding_range}, untitled=True,
           switch="folding", declared="folding"),
    Method(types.TEXT_DOCUMENT_SELECTION_RANGE,
           {SKILL: selection_ranges.selection_range, CHAT: selection_ranges.selection_range}, untitled=True,
           switch="selection_ranges", declared="selection_ranges"),
)

# the methods the server core answers itself, with the module that registers each
CORE_METHODS: dict[str, str] = {
    types.INITIALIZE: "lifecycle",
    types.INITIALIZED: "lifecycle",
    types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS: "lifecycle",
    types.WORKSPACE_DID_CHANGE_CONFIGURATION: "lifecycle",
    types.WORKSPACE_DID_CHANGE_WATCHED_FILES: "lifecycle",
    types.TEXT_DOCUMENT_DID_OPEN: "diagnostics",
    types.TEXT_DOCUMENT_DID_CHANGE: "diagnostics",
    types.TEXT_DOCUMENT_DID_SAVE: "diagnostics",
    types.TEXT_DOCUMENT_DID_CLOSE: "diagnostics",
    types.TEXT_DOCUMENT_DIAGNOSTIC: "diagnostics",
    types.WORKSPACE_DIAGNOSTIC: "diagnostics",
    types.WORKSPACE_EXECUTE_COMMAND: "commands",
}
