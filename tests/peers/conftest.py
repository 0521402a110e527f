"""Peer comparisons print their counts at the end of the run."""

from __future__ import annotations

import pytest

from tests.peers.peer_env import RESULTS


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not RESULTS:
        return
    terminalreporter.section("peer comparisons")
    for result in RESULTS:
        terminalreporter.write_line(result.line())
