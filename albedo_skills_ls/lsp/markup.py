"""How answers are written for this client: Markdown or plain text, and which completion items fit what is
typed. Feature-side helpers, decided from the client's declared features alone (`ClientFeatures`)."""

from __future__ import annotations

from typing import Literal

from lsprotocol import types

from .client import ClientFeatures


def markup(client: ClientFeatures, markdown: str, feature: Literal["hover", "completion"]) -> types.MarkupContent:
    """Markdown when the client renders it for this feature, else the same text as plain text."""
    renders = client.hover_markdown if feature == "hover" else client.completion_markdown
    kind = types.MarkupKind.Markdown if renders else types.MarkupKind.PlainText
    return types.MarkupContent(kind=kind, value=markdown)


def as_is(client: ClientFeatures) -> types.InsertTextMode | None:
    """`insertTextMode` for an item: `asIs` where the client takes it (the text is exact; see
    `ClientFeatures.completion_as_is`), else left out."""
    return types.InsertTextMode.AsIs if client.completion_as_is else None


def fits_typed(candidate: str, typed: str) -> bool:
    """Whether a completion item filtered by `candidate` fits the text it replaces. The server filters its items
    itself: they carry a textEdit (or the list's default edit range) and no filterText (Neovim 0.7 ignores the
    edit's start when an item has one), and Neovim 0.11 shows such items unfiltered, trusting the server."""
    return candidate.casefold().startswith(typed.casefold())
