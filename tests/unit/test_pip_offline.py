"""Telling "pip could not reach the index" from "no such version" in pip's output."""

from __future__ import annotations

import socket

from kernel_wizard.prereqs.fixes import pip_was_offline

RETRYING = ("WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, "
            "status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3"
            ".connection.HTTPSConnection object at 0x7f>: Failed to establish a new connection: "
            "[Errno -3] Temporary failure in name resolution')': /whl/cu130/torch/")
NO_MATCH = ["ERROR: Could not find a version that satisfies the requirement torch==2.11.0 "
            "(from versions: none)", "ERROR: No matching distribution found for torch==2.11.0"]


def test_pips_retry_lines_say_offline() -> None:
    assert pip_was_offline([RETRYING, *NO_MATCH])


def test_no_such_version_on_a_reachable_index_is_not_offline() -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        assert not pip_was_offline(NO_MATCH, f"http://127.0.0.1:{port}/simple")
    assert not pip_was_offline(NO_MATCH)  # no index given: nothing to ask


def test_no_match_on_an_index_that_refuses_is_offline() -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
    # the server is closed now: its port refuses
    assert pip_was_offline(NO_MATCH, f"http://127.0.0.1:{port}/simple")
    assert not pip_was_offline(["ERROR: some other failure"], f"http://127.0.0.1:{port}/s")
