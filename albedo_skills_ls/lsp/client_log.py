"""The server's own log records, forwarded to the client's log (`window/logMessage`) at or above
`albedoSkills.logLevel`. Part of the server core; contents never reach a record (`redaction.py`)."""

from __future__ import annotations

import logging
from typing import Any

from lsprotocol import types

LEVELS = {"error": logging.ERROR, "warning": logging.WARNING, "info": logging.INFO, "debug": logging.DEBUG}
_MESSAGE_TYPES = {
    logging.ERROR: types.MessageType.Error,
    logging.WARNING: types.MessageType.Warning,
    logging.INFO: types.MessageType.Info,
    logging.DEBUG: types.MessageType.Log,
}


def level_of(setting: str) -> int:
    return LEVELS.get(setting, logging.INFO)


class ClientLogHandler(logging.Handler):
    """Forwards log records to `window/logMessage` through `server` (the language server)."""

    def __init__(self, server: Any, level: str) -> None:
        super().__init__(level_of(level))
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
