# SPDX-License-Identifier: MIT
"""pytest settings for the acgrep module's tests: a last line
"N passed, N failed", the form tests/check.sh counts."""


def pytest_terminal_summary(terminalreporter):
    stats = terminalreporter.stats
    failed = len(stats.get("failed", [])) + len(stats.get("error", []))
    terminalreporter.write_line("%d passed, %d failed" % (len(stats.get("passed", [])), failed))
