"""The open documents as one request or one publish sees them.

Part of the server core. The server takes a `Buffers` from pygls's document store when a publish or a request
starts (`AlbedoLanguageServer.buffers()`, the one place that reads the store) and hands it down: each
document is read from the store at most once per snapshot, its text, version and language id kept together,
so a publish checks, converts and versions one text, and nothing below the server asks pygls again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote

from .documents import Kind, OpenDocument, kind_of
from .settings import Settings
from .uris import path_to_uri, uri_to_path


class Buffers:
    """The open documents, each read at most once: by URI (as the client names it) or by file path."""

    def __init__(self, store: Mapping[str, Any], settings: Settings) -> None:
        # pygls keys its documents by the percent-decoded URI; the keys are taken now, each text when first asked
        self._store = dict(store)
        self._settings = settings
        self._read: dict[str, tuple[str, int | None, str | None]] = {}  # by key: text, version, language id
        self._keys: dict[str, str | None] = {}  # by path: its key, found once (a publish asks several times)

    def at_uri(self, uri: str) -> OpenDocument | None:
        """The open buffer at `uri` (spelled as given), or None."""
        key = unquote(uri)
        return self._described(uri, key) if key in self._store else None

    def at(self, path: str) -> OpenDocument | None:
        """The open buffer of a file, found by its path (its URI spelled as we write it), or None."""
        key = self._key_of(path)
        return self._described(path_to_uri(path), key) if key is not None else None

    def text(self, path: str) -> tuple[str, int | None] | None:
        """An open buffer's text and version, found by its file's path; None when the file is not open."""
        key = self._key_of(path)
        if key is None:
            return None
        text, version, _language_id = self._contents(key)
        return text, version

    def kind(self, path: str) -> Kind | None:
        """What an open file is (`documents.kind_of`), decided without reading its text; None when it is not
        open or is none of the kinds."""
        key = self._key_of(path)
        if key is None:
            return None
        return kind_of(path_to_uri(path), getattr(self._store[key], "language_id", None), self._settings)

    def is_open(self, path: str) -> bool:
        return self._key_of(path) is not None

    def paths(self) -> list[str]:
        """The files of the open documents (an `untitled:` buffer has none)."""
        return [path for uri in self._store if (path := uri_to_path(uri))]

    def _key_of(self, path: str) -> str | None:
        """The key under which the client's buffer of `path` is kept: the URI as we write it, else any URI naming
        the same path (a Windows client may spell the drive `C:` or `c%3A` where we write `c:`)."""
        if path not in self._keys:
            uri = unquote(path_to_uri(path))
            self._keys[path] = uri if uri in self._store else next(
                (key for key in self._store if uri_to_path(key) == path), None)
        return self._keys[path]

    def _contents(self, key: str) -> tuple[str, int | None, str | None]:
        """The one read of a document from the store."""
        if key not in self._read:
            document = self._store[key]
            self._read[key] = (document.source, document.version, getattr(document, "language_id", None))
        return self._read[key]

    def _described(self, uri: str, key: str) -> OpenDocument:
        text, version, language_id = self._contents(key)
        return OpenDocument(uri, uri_to_path(uri), text, version, language_id, kind_of(uri, language_id, self._settings))
