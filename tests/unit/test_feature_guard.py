"""A broken feature answers a JSON-RPC error that names it; protocol errors pass through unchanged."""

import pytest
from pygls.exceptions import JsonRpcInternalError, JsonRpcInvalidParams

from albedo_skills_ls.lsp.dispatch import isolated


def test_a_failing_feature_becomes_an_internal_error_naming_it():
    @isolated
    def hover(ls, params):
        raise KeyError("boom")

    with pytest.raises(JsonRpcInternalError) as error:
        hover(None, None)
    assert "hover failed" in error.value.message and "KeyError" in error.value.message


def test_protocol_errors_are_not_rewrapped():
    @isolated
    def completion(ls, params):
        raise JsonRpcInvalidParams("bad position")

    with pytest.raises(JsonRpcInvalidParams, match="bad position"):
        completion(None, None)


def test_results_pass_through():
    assert isolated(lambda ls, params: [1, 2])(None, None) == [1, 2]
