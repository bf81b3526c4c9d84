#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# deps.sh - make sure a Debian machine has what building and testing acgrep
# needs.  As root: apt-get installs exactly what is missing.  Otherwise:
# prints the apt-get command to run and exits 1.  Silent when nothing is
# missing.
#
# Usage: tests/deps.sh                  what `make check` needs
#        tests/deps.sh --cross ARCH...  that, and what `make check-cross` needs
#                                       for each GNU triplet prefix (aarch64 s390x):
#                                       its cross gcc and libc, qemu-user, localedef's C
set -euo pipefail

missing=()
cross=()
args=("$@")
if [[ ${1:-} == --cross ]]; then
	shift
	cross=("$@")
fi

have_cmd() { command -v "$1" >/dev/null 2>&1; }
need_cmd() { have_cmd "$1" || missing+=("${2:-$1}"); }
need_pkg() {
	[[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]] || missing+=("$1")
}

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
# the regression gate (tests/gate/run.sh): instruction and system call counts
need_cmd valgrind
need_cmd strace
need_cmd /usr/bin/time time
need_cmd readelf binutils
# --decompress: the libraries, and the compressors the tests make files with
[[ -e /usr/include/zlib.h ]] || missing+=(zlib1g-dev)
[[ -e /usr/include/lzma.h ]] || missing+=(liblzma-dev)
[[ -e /usr/include/zstd.h ]] || missing+=(libzstd-dev)
[[ -e /usr/include/bzlib.h ]] || missing+=(libbz2-dev)
need_cmd gzip
need_cmd xz xz-utils
need_cmd zstd
need_cmd bzip2
# make check's other builds: clang, and on x86-64 the i386 one (gcc -m32)
need_cmd clang
if [[ $(uname -m) == x86_64 ]] && have_cmd gcc; then
	[[ -e /usr/include/x86_64-linux-gnu/gnu/stubs-32.h ]] || missing+=(libc6-dev-i386)
	gcc_major=$(gcc -dumpversion | cut -d. -f1)
	libgcc=$(gcc -print-libgcc-file-name)
	[[ -e ${libgcc%/*}/32/libgcc.a ]] || missing+=("lib32gcc-$gcc_major-dev")
fi

# the scaling-out tests (35-scale-out.bats): GNU parallel, rsync for its
# --basefile and --transferfile, and dask.distributed for contrib/dask
need_cmd parallel
need_cmd rsync
if have_cmd dpkg-query; then
	need_pkg python3-distributed
fi

# the acgrep Python module (make python): its headers, pytest, and
# pyahocorasick for the differential test
if have_cmd dpkg-query; then
	need_pkg python3-dev
	need_pkg python3-pytest
	need_pkg python3-ahocorasick
fi

# the completion tests' shells; make deb's tools (dpkg-buildpackage wants
# build-essential besides debian/control's Build-Depends)
need_cmd zsh
need_cmd fish
if have_cmd dpkg-query; then
	need_pkg build-essential
	need_pkg debhelper
	need_pkg dpkg-dev
	need_pkg lintian
fi

# Debian's name of the architecture of a GNU triplet prefix
debian_arch() {
	case $1 in
	aarch64) echo arm64 ;;
	x86_64) echo amd64 ;;
	i686) echo i386 ;;
	powerpc64le) echo ppc64el ;;
	*) echo "$1" ;;
	esac
}
for arch in "${cross[@]}"; do
	need_cmd "$arch-linux-gnu-gcc" "gcc-$arch-linux-gnu"
	[[ -e /usr/$arch-linux-gnu/include/stdio.h ]] || missing+=("libc6-dev-$(debian_arch "$arch")-cross")
	need_cmd "qemu-$arch" qemu-user
done
if ((${#cross[@]})); then
	need_cmd localedef libc-bin
	[[ -e /usr/share/i18n/locales/C ]] || missing+=(locales)
fi
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | awk 'NF && !seen[$0]++')

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
# once more: what depends on the installed compiler's version (lib32gcc-N-dev)
# is known only now
if [[ -z ${ACGREP_DEPS_AGAIN:-} ]]; then
	ACGREP_DEPS_AGAIN=1 exec "$0" "${args[@]}"
fi
