"""The support the chat tests stand on: the pinned plugins' sources and the fake model."""

from __future__ import annotations

import gzip
import io
import json
import tarfile
import urllib.request

import pytest

import pinned
from fake_model import FakeModel


def _post(url: str, body: dict) -> bytes:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return response.read()


def test_fake_model_records_each_body_and_answers_json_and_events():
    with FakeModel(reply="Hello there.") as model:
        plain = json.loads(_post(f"{model.base_url}/v1/chat/completions", {"messages": [{"role": "user", "content": "a"}]}))
        streamed = _post(f"{model.base_url}/chat/completions", {"stream": True, "messages": []}).decode()
        received = model.wait_for(2)
    assert [r.get("stream") for r in received] == [None, True]
    assert received[0]["messages"] == [{"role": "user", "content": "a"}]
    assert plain["choices"][0]["message"]["content"] == "Hello there."
    events = [json.loads(line[6:]) for line in streamed.splitlines() if line.startswith("data: {")]
    assert "".join(e["choices"][0]["delta"].get("content", "") for e in events) == "Hello there."
    assert streamed.rstrip().endswith("data: [DONE]")


def _tarball(folder, name: str, stem: str) -> str:
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w") as archive:
        content = b"-- a plugin\n"
        info = tarfile.TarInfo(f"{name}/init.lua")
        info.size = len(content)
        archive.addfile(info, io.BytesIO(content))
    (folder / f"{stem}.tar.gz").write_bytes(gzip.compress(data.getvalue()))
    return pinned.sha256(folder / f"{stem}.tar.gz")


@pytest.fixture
def one_pin(tmp_path, monkeypatch):
    deps, cache = tmp_path / "deps", tmp_path / "cache"
    deps.mkdir()
    commit = "ab" * 20
    digest = _tarball(deps, "demo.nvim", f"demo.nvim-{commit[:pinned.SHORT]}")
    pins = tmp_path / "pins.tsv"
    monkeypatch.setattr(pinned, "PINS", pins)
    monkeypatch.setattr(pinned, "CACHE", cache)
    monkeypatch.setattr(pinned, "tarball_folders", lambda: [deps])
    return pins, commit, digest, cache


def without_extraction_filters(monkeypatch) -> None:
    """Python before 3.11.4, as Debian 12's 3.11.2: no `tarfile.data_filter`, and `extractall` takes no `filter`."""
    extractall = tarfile.TarFile.extractall

    def old_extractall(self, path=".", members=None, *, numeric_owner=False):
        return extractall(self, path, members, numeric_owner=numeric_owner)

    monkeypatch.setattr(tarfile.TarFile, "extractall", old_extractall)
    monkeypatch.delattr(tarfile, "data_filter", raising=False)


@pytest.mark.parametrize("python", ["this Python", "Python 3.11.2"])
def test_plugin_dir_takes_the_tarball_whose_digest_is_pinned_and_caches_it(one_pin, monkeypatch, python):
    if python == "Python 3.11.2":
        without_extraction_filters(monkeypatch)
    pins, commit, digest, cache = one_pin
    pins.write_text(f"# header\ndemo.nvim\thttps://invalid.example/demo\t{commit}\t{digest}\n", encoding="utf-8")
    folder = pinned.plugin_dir("demo.nvim")
    assert folder == cache / f"demo.nvim-{commit[:12]}" / "demo.nvim"
    assert (folder / "init.lua").read_text() == "-- a plugin\n"
    assert [p.name for p in cache.iterdir()] == [f"demo.nvim-{commit[:12]}"]  # no scratch folder left


def test_plugin_dir_refuses_a_tarball_with_another_digest(one_pin):
    pins, commit, _, cache = one_pin
    pins.write_text(f"demo.nvim\thttps://invalid.invalid/demo\t{commit}\t{'0' * 64}\n", encoding="utf-8")
    with pytest.raises(pinned.PinnedPluginMissing, match="not the pinned 0000"):
        pinned.plugin_dir("demo.nvim")
    assert list(cache.iterdir()) == []


def test_every_pinned_plugin_is_available():
    for name in pinned.pins():
        assert pinned.plugin_dir(name).is_dir(), name
