"""Rename a skill from its `name:`, from a `/name` (chat buffer or `SKILL.md`), or by renaming its folder in
the editor's file tree (`workspace/willRenameFiles`): the engine's plan (`skills/language/rename.py`) as one
`WorkspaceEdit`.

The edit's order is what the client applies in turn: the skill's folder, then the text edits (files inside
the folder at their new names). Links that mirror the folder into other agents' roots are left to `albedo-skills rename OLD
NEW`, which renames and re-points them (see `workspace_edit`); every change of such a rename carries one
change annotation that asks for confirmation and names that command, and a message says it to clients
without annotations. A client that
cannot rename folders (`ClientFeatures.rename_files`) gets a refusal that says so, never half a rename;
mentions outside every workspace folder are left, and the message lists them.
"""

from __future__ import annotations

import os

from lsprotocol import types

from ..skills.language.mentions import MentionedSkill, target_at
from ..skills.core.model import Range
from ..skills.core.paths import is_within
from ..skills.language.rename import Refusal, RenamePlan, finish_command, plan_rename
from ..skills.document.rules import check_document
from ..skills.document.skill_file import read_skill_text
from .commands import RequestFailed
from .convert import to_lsp_range
from .uris import path_to_uri, uri_to_path
from .documents import OpenDocument
from .find_references import catalog_of, search_options, source, target_under, workspace_folders
from .request import Request

RELINK = "albedo-skills.relink"
OUTSIDE = "albedo-skills.outside-workspace"


def _refuse_without_file_operations(request: Request, old: str) -> None:
    if not request.client.rename_files:
        raise RequestFailed(
            "this editor cannot rename a folder through a language server, and renaming a skill renames its "
            "folder: "
            f"run `albedo-skills rename {old} NEW` in a terminal instead"
        )


def _annotation(request: Request, plan: RenamePlan) -> str | None:
    """The one annotation every change of this rename carries, when the rename asks for confirmation.

    Every change, not only the folder's: VS Code's preview starts each change that needs confirmation
    unchecked (its bulk edit preview, read in 1.139.1), so an annotation on the folder alone would apply the
    text edits without the folder, half a rename. One label groups them under one checkbox: all or none."""
    if not request.client.change_annotations:
        return None
    return RELINK if plan.relinks else OUTSIDE if plan.outside_workspace else None


def _text_edits(
    request: Request, plan: RenamePlan, annotation: str | None, moved: tuple[str, str] | None
) -> list[types.TextDocumentEdit]:
    """The text edits by file; `moved` (old folder, new folder): the edits come after the folder's rename, so
    a file inside it is addressed by its new name (and no version: the editor's buffer was renamed)."""
    by_path: dict[str, list] = {}
    for edit in plan.edits:
        by_path.setdefault(edit.path, []).append(edit)
    found = []
    for path, edits in by_path.items():
        opened = request.buffers.text(path)
        lines = source(request.buffers, path)
        target, version = path, opened[1] if opened else None
        if moved is not None and path.startswith(moved[0] + "/"):
            target, version = moved[1] + path[len(moved[0]) :], None
        found.append(
            types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(uri=path_to_uri(target), version=version),
                edits=[
                    types.AnnotatedTextEdit(range=to_lsp_range(edit.range, lines, request.encoding),
                                            new_text=edit.new_text, annotation_id=annotation)
                    if annotation
                    else types.TextEdit(range=to_lsp_range(edit.range, lines, request.encoding), new_text=edit.new_text)
                    for edit in edits
                ],
            )
        )
    return found


def workspace_edit(
    request: Request, plan: RenamePlan, *, with_folder: bool = True
) -> types.WorkspaceEdit:
    """The folder's rename (unless the editor renames it itself), then the text edits, those inside the folder
    at their new names: VS Code 1.139.1 (seen in code-server) lost the edit of the open `SKILL.md` when it came
    before the folder's rename, and Neovim 0.11 renames the buffers with the folder. Mirror links are not
    in the edit: a client renames a link by resolving it (Neovim 0.11.4, run here, moved the linked folder
    itself), and none can change where a link points. When the skill has mirrors (or lives outside the
    workspace), every change carries one annotation that asks for confirmation and names the command that
    renames and re-points the links."""
    annotation = _annotation(request, plan)
    changes: list = []
    moved = None
    if with_folder:
        folder = next(rename for rename in plan.renames if rename.kind == "folder")
        changes.append(
            types.RenameFile(old_uri=path_to_uri(folder.old), new_uri=path_to_uri(folder.new), annotation_id=annotation)
        )
        moved = (folder.old, folder.new)
    changes += _text_edits(request, plan, annotation, moved)
    annotations = None
    if annotation == RELINK:
        annotations = {
            RELINK: types.ChangeAnnotation(
                label=f"Rename the skill `{plan.old_name}` (its mirror links: `{finish_command(plan.old_name, plan.new_name)}`)",
                needs_confirmation=True,
                description=f"Mirror link(s) in other agents' folders that an editor cannot re-point: {_relinks_named(request, plan)}; "
                f"they point at the old folder until `{finish_command(plan.old_name, plan.new_name)}` renames and "
                "re-points them",
            )
        }
    elif annotation == OUTSIDE:
        annotations = {
            OUTSIDE: types.ChangeAnnotation(
                label=f"Rename the skill `{plan.old_name}`, outside the workspace folders",
                needs_confirmation=True,
                description="This skill lives in a user root, outside every workspace folder",
            )
        }
    return types.WorkspaceEdit(document_changes=changes, change_annotations=annotations)


def _relinks_named(request: Request, plan: RenamePlan) -> str:
    """Each mirror link the edit leaves, as the person finds it and as the finishing command leaves it:
    "`.claude/skills/demo` (to become `.claude/skills/showcase` -> `../../.agents/skills/showcase`)"."""
    folders = workspace_folders(request)

    def shown(path: str) -> str:
        inside = next((folder for folder in folders if is_within(path, folder)), None)
        return os.path.relpath(path, inside) if inside is not None else path

    return ", ".join(
        f"`{shown(link.old)}` (to become `{shown(link.new)}` -> `{link.link_target}`)" for link in plan.relinks
    )


def tell_what_is_left(request: Request, plan: RenamePlan) -> None:
    """What the edit cannot do, said once: links to re-point, mentions left outside the workspace."""
    notes = []
    if plan.relinks:
        notes.append(
            f"mirror link(s) in other agents' folders still point at the old folder, which an editor cannot "
            f"change: {_relinks_named(request, plan)}; run `{finish_command(plan.old_name, plan.new_name)}` to rename "
            "and re-point them"
        )
    if plan.left:
        places = ", ".join(f"{mention.path}:{mention.range.start.line + 1}" for mention in plan.left[:3])
        more = f" and {len(plan.left) - 3} more" if len(plan.left) > 3 else ""
        notes.append(f"{len(plan.left)} mention(s) outside the workspace were left as they are: {places}{more}")
    if notes:
        request.show_message(types.MessageType.Info, "; ".join(notes))


def _plan(request: Request, target: MentionedSkill, new_name: str) -> RenamePlan:
    plan = plan_rename(
        catalog_of(request, target), target, new_name, request.settings.home_folder(), **search_options(request)
    )
    if isinstance(plan, Refusal):
        raise RequestFailed(f"cannot rename `{target.name}` to `{new_name}`: {plan.message}")
    # a `/old` the rename could not reach (outside the workspace, typed later) is then named for what it became
    request.findings.command_findings.remember_rename(plan.old_name, plan.new_name)
    return plan


def _starting_point(
    request: Request, document: OpenDocument, position: types.Position
) -> tuple[MentionedSkill, Range] | None:
    """The skill named under the cursor, once it is known this client can take the edit."""
    found = target_under(request, document, position)
    if found is None:
        return None
    _refuse_without_file_operations(request, found[0].name)
    return found


def rename(request: Request, document: OpenDocument, params: types.RenameParams) -> types.WorkspaceEdit | None:
    start = _starting_point(request, document, params.position)
    if start is None:
        return None
    # one snapshot (the request's): the plan's texts are the texts the edit's ranges are counted on
    plan = _plan(request, start[0], params.new_name.strip().removeprefix("/"))
    tell_what_is_left(request, plan)
    folder = next(rename for rename in plan.renames if rename.kind == "folder")
    request.memory.folder_renames_sent.add((folder.old, folder.new))
    return workspace_edit(request, plan)


def prepare_rename(
    request: Request, document: OpenDocument, params: types.PrepareRenameParams
) -> types.PrepareRenamePlaceholder | None:
    start = _starting_point(request, document, params.position)
    if start is None:
        return None
    target, where = start
    return types.PrepareRenamePlaceholder(range=document.to_lsp(where, request.encoding), placeholder=target.name)


# Folder renames in the file tree, for clients that declare `workspace.fileOperations.willRename`
FOLDER_RENAMES = types.FileOperationRegistrationOptions(
    filters=[
        types.FileOperationFilter(
            pattern=types.FileOperationPattern(glob="**/{.albedo,.agents}/skills/*",
                                               matches=types.FileOperationPatternKind.Folder)
        )
    ]
)


def will_rename_files(request: Request, params: types.RenameFilesParams) -> types.WorkspaceEdit | None:
    sent = request.memory.folder_renames_sent
    for renamed in params.files:
        old, new = uri_to_path(renamed.old_uri), uri_to_path(renamed.new_uri)
        if old is None or new is None:
            continue
        # VS Code runs its file-operation participants (this) on the RenameFile of an edit too, and our own
        # rename's edit already holds the text edits: a second set would be offered for the same move (seen
        # in code-server 1.139.1)
        if (old, new) in sent:
            sent.discard((old, new))
            return None
        skill_file = f"{old}/SKILL.md"
        opened = request.buffers.text(skill_file)
        name = check_document(opened[0] if opened else read_skill_text(skill_file) or "", skill_file, None).name
        if name is None:
            continue
        target = target_at(request.workspaces.session_placing(skill_file).snapshot, skill_file, name)
        try:
            plan = _plan(request, target, os.path.basename(new))
        except RequestFailed as refused:
            request.show_message(types.MessageType.Warning, f"{refused}: `name:` and the mentions are left as they are")
            return None
        tell_what_is_left(request, plan)
        return workspace_edit(request, plan, with_folder=False)
    return None
