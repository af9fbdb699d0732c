"""Fixtures shared by the integration tests that talk to a real HTTP server on loopback."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from loopback_http import LoopbackServer

PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy",
                   "all_proxy")


@pytest.fixture
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loopback must not go through a proxy from the environment."""
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    """A real HTTP server on 127.0.0.1, stopped after the test."""
    srv = LoopbackServer().start()
    try:
        yield srv
    finally:
        srv.stop()
