"""Hostile trees and inputs, built for real: the engine and the real server over stdio (tests/lsp/harness.py)."""

from lsp.conftest import servers  # noqa: F401  (the fixture that starts real servers and stops them after)
