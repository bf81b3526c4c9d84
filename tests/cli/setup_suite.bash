# SPDX-License-Identifier: MIT
# setup_suite.bash - run by bats once before the test files of a run (the
# files of tests/cli, or some of them).
#
# python3 is run by a few hundred tests.  Where the python3 in PATH is a
# version manager's shim (pyenv's is a bash script that runs `pyenv exec`:
# over a second a start on a loaded machine, 30 times the interpreter's
# own), the tests get the interpreter itself: a link to it, named python3,
# first in PATH, for every file of the run (bats passes what is exported
# here on to them).
setup_suite() {
	local py
	py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) || return 0
	[[ -x $py ]] || return 0
	mkdir -p "$BATS_RUN_TMPDIR/python"
	ln -sf "$py" "$BATS_RUN_TMPDIR/python/python3"
	export PATH=$BATS_RUN_TMPDIR/python:$PATH
}
