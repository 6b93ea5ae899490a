"""What an editor does with a rename's `WorkspaceEdit`, on disk: for the server's rename tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from lsprotocol import types
from pygls.uris import to_fs_path

from .editing import apply_edits, feature_caps


def rename_caps(*, files: bool = True, annotations: bool = True, will_rename: bool = True) -> types.ClientCapabilities:
    """The harness's editor capabilities plus rename, references and file operations (as VS Code declares
    them; `files=False`: a client that cannot rename files)."""
    caps = feature_caps()
    assert caps.text_document is not None and caps.workspace is not None
    caps.text_document.rename = types.RenameClientCapabilities(prepare_support=True)
    caps.text_document.references = types.ReferenceClientCapabilities()
    caps.workspace.workspace_edit = types.WorkspaceEditClientCapabilities(
        document_changes=True,
        resource_operations=[types.ResourceOperationKind.Rename] if files else None,
        change_annotation_support=types.ChangeAnnotationsSupportOptions(groups_on_label=True) if annotations else None,
    )
    if will_rename:
        caps.workspace.file_operations = types.FileOperationClientCapabilities(will_rename=True, did_rename=True)
    return caps


def apply_to_disk(edit: types.WorkspaceEdit) -> None:
    """Apply document changes in order, as an editor does: text edits to files, renames with os.rename."""
    for change in edit.document_changes or []:
        if isinstance(change, types.TextDocumentEdit):
            path = Path(to_fs_path(change.text_document.uri))
            path.write_text(apply_edits(path.read_text(encoding="utf-8"), list(change.edits)), encoding="utf-8")
        elif isinstance(change, types.RenameFile):
            os.rename(to_fs_path(change.old_uri), to_fs_path(change.new_uri))
        else:
            raise AssertionError(f"unexpected change {change!r}")


def finish(workspace: Path, home: Path, old: str, new: str) -> subprocess.CompletedProcess:
    """The command the server's message names, run as a person would."""
    env = dict(os.environ, HOME=str(home))
    return subprocess.run(
        [sys.executable, "-m", "albedo_skills_ls.cli", "rename", old, new], cwd=workspace, env=env, capture_output=True
    )
