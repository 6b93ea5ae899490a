"""The start-up check of pygls's internals (lsp/pygls_internals.py): a pygls that lacks one refuses to start,
naming the installed version and what is gone, instead of breaking silently later."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version

import pytest
from pygls.protocol import JsonRPCProtocol, LanguageServerProtocol

from albedo_skills_ls.lsp import pygls_internals
from albedo_skills_ls.lsp.app import create_server
from albedo_skills_ls.lsp.main import EXIT_UNTESTED_PYGLS


def test_the_pinned_pygls_has_every_internal_and_is_the_tested_one():
    assert pygls_internals.missing_internals(create_server()) == []
    assert version("pygls") == pygls_internals.TESTED_PYGLS


@pytest.mark.parametrize(
    "owner, name",
    [(owner, name) for owner, name in pygls_internals.PRIVATE_METHODS],
)
def test_a_missing_private_method_stops_the_start(monkeypatch, owner, name):
    server = create_server()
    monkeypatch.delattr(owner, name)
    with pytest.raises(pygls_internals.PyglsInternalsMissing) as refused:
        pygls_internals.check(server)
    message = str(refused.value)
    assert f"{owner.__name__}.{name}" in message
    assert f"the installed pygls {version('pygls')} lacks" in message
    assert "docs/server.md" in message and f"pygls=={pygls_internals.TESTED_PYGLS}" in message


@pytest.mark.parametrize("name", pygls_internals.PROTOCOL_ATTRIBUTES)
def test_a_missing_protocol_attribute_stops_the_start(name):
    server = create_server()
    delattr(server.protocol, name)
    with pytest.raises(pygls_internals.PyglsInternalsMissing, match=f"lacks .*protocol.{name}"):
        pygls_internals.check(server)


@pytest.mark.parametrize("name", pygls_internals.SERVER_ATTRIBUTES)
def test_a_missing_server_attribute_stops_the_start(name):
    server = create_server()
    delattr(server, name)
    with pytest.raises(pygls_internals.PyglsInternalsMissing, match=f"lacks .*server.{name}"):
        pygls_internals.check(server)


def test_progress_tokens_are_checked():
    server = create_server()
    del server.protocol.progress.tokens
    with pytest.raises(pygls_internals.PyglsInternalsMissing, match="Progress.tokens"):
        pygls_internals.check(server)


def _start_with(prelude: str) -> subprocess.CompletedProcess[str]:
    """The real console script's `main`, in a fresh interpreter where `prelude` first breaks pygls."""
    program = f"{prelude}\nimport sys\nfrom albedo_skills_ls.lsp.main import main\nsys.exit(main([]))\n"
    return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, stdin=subprocess.DEVNULL)


def test_the_server_process_refuses_to_start_with_a_clear_line():
    result = _start_with("import pygls.protocol.json_rpc as rpc\ndel rpc.JsonRPCProtocol._send_data")
    assert result.returncode == EXIT_UNTESTED_PYGLS
    assert result.stderr.startswith("albedo-skills-ls: albedo-skills-ls was tested with pygls")
    assert "lacks JsonRPCProtocol._send_data" in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""


def test_a_name_pygls_no_longer_exports_is_refused_the_same_way():
    result = _start_with("import pygls.lsp.server, pygls.protocol\ndel pygls.protocol.lsp_method")
    assert result.returncode == EXIT_UNTESTED_PYGLS
    assert "lacks" in result.stderr and "lsp_method" in result.stderr and "Traceback" not in result.stderr


def test_the_real_classes_are_the_ones_checked():
    # the overrides are looked up on pygls's classes, not ours (ours define them, so would always pass)
    owners = {owner for owner, _name in pygls_internals.PRIVATE_METHODS}
    assert owners == {JsonRPCProtocol, LanguageServerProtocol}
