"""The server's own log records, forwarded to the client's log (`window/logMessage`) at or above
`albedoSkills.logLevel`. Part of the server core; contents never reach a record (`redaction.py`)."""

from __future__ import annotations

import logging

from lsprotocol import types
from pygls.lsp.server import LanguageServer

LEVELS = {"error": logging.ERROR, "warning": logging.WARNING, "info": logging.INFO, "debug": logging.DEBUG}
_MESSAGE_TYPES = {
    logging.ERROR: types.MessageType.Error,
    logging.WARNING: types.MessageType.Warning,
    logging.INFO: types.MessageType.Info,
    logging.DEBUG: types.MessageType.Log,
}


def set_client_level(handler: logging.Handler, setting: str) -> None:
    """The client's log gets records from `setting` up; stderr's handler keeps its own level (`-v`), so our
    logger lets through whatever either wants."""
    level = LEVELS.get(setting, logging.INFO)
    handler.setLevel(level)
    logging.getLogger("albedo_skills_ls").setLevel(min(level, logging.getLogger().getEffectiveLevel()))


class ClientLogHandler(logging.Handler):
    """Forwards log records to `window/logMessage` through `server` (the language server)."""

    def __init__(self, server: LanguageServer) -> None:
        super().__init__(logging.INFO)
        self.server = server
        self._sending = False

    def emit(self, record: logging.LogRecord) -> None:
        if self._sending or self.server.protocol.writer is None:
            return
        self._sending = True  # a failure while sending must not log its way back in here
        try:
            kind = _MESSAGE_TYPES.get(record.levelno, types.MessageType.Log)
            self.server.window_log_message(types.LogMessageParams(type=kind, message=self.format(record)))
        except Exception:
            pass
        finally:
            self._sending = False
