#!/usr/bin/env bash
# deps.sh - make sure a Debian machine has what building and testing acgrep
# needs.  As root: apt-get installs exactly what is missing.  Otherwise:
# prints the apt-get command to run and exits 1.  Silent when nothing is
# missing.
set -euo pipefail

missing=()

have_cmd() { command -v "$1" >/dev/null 2>&1; }
need_cmd() { have_cmd "$1" || missing+=("${2:-$1}"); }

need_cmd gcc
need_cmd make
need_cmd pkg-config
# C library headers (gcc only recommends them)
[[ -e /usr/include/stdio.h ]] || missing+=(libc6-dev)
if ! have_cmd pkg-config || ! pkg-config --exists libpcre2-8 2>/dev/null; then
	missing+=(libpcre2-dev)
fi
need_cmd bats
bats_lib=${BATS_LIB_DIR:-/usr/lib/bats}
[[ -f $bats_lib/bats-support/load.bash ]] || missing+=(bats-support)
[[ -f $bats_lib/bats-assert/load.bash ]] || missing+=(bats-assert)
need_cmd python3

((${#missing[@]})) || exit 0

if [[ $(id -u) != 0 ]]; then
	echo "deps: missing: ${missing[*]}" >&2
	echo "deps: install them with:" >&2
	echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
	exit 1
fi
if ! have_cmd apt-get; then
	echo "deps: missing: ${missing[*]}, and apt-get is not available to install them" >&2
	exit 1
fi

echo "deps: installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q </dev/null
apt-get install -y -q "${missing[@]}" </dev/null
