# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# lib.sh - helpers shared by the scripts in scripts/perf (sourced, not run).
#
# Owns: where the benchmark cache lives, which Python runs the harness,
# installing (or asking for) Debian packages, warming the page cache, and the
# header that every result carries (date, CPU, compiler and flags, commit).

PERF_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$PERF_DIR/../.." && pwd)
BENCH_DIR=${ACGREP_BENCH_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/acgrep-bench}
# Debian's interpreter: python3-scipy is installed for it, not for a pyenv/venv one.
PY=${ACGREP_BENCH_PYTHON:-/usr/bin/python3}
export LC_ALL=C

say() { printf 'scripts/perf: %s\n' "$*" >&2; }
die() { printf 'scripts/perf: error: %s\n' "$*" >&2; exit 2; }
# Fail loudly: name the command that stopped a script under set -e.
set -E
trap 'say "error: \"$BASH_COMMAND\" failed (status $?) at ${BASH_SOURCE[0]##*/}:$LINENO"' ERR

# first_line COMMAND... - the first line of a command's output (no SIGPIPE games).
first_line() {
	local o
	o=$("$@" 2>&1 || true)
	printf '%s\n' "${o%%$'\n'*}"
}

# need PKG:CHECK ... - every PKG whose CHECK fails is installed with apt-get
# (as root), or named in a message that says how to install it (otherwise).
# CHECK is a command name, or py:MODULE for a module of Debian's python3.
need() {
	local missing=() spec pkg chk
	for spec in "$@"; do
		pkg=${spec%%:*}
		chk=${spec#*:}
		case $chk in
		py:*) "$PY" -c "import ${chk#py:}" 2>/dev/null && continue ;;
		/*) [[ -e $chk ]] && continue ;;
		*) command -v "$chk" >/dev/null 2>&1 && continue ;;
		esac
		missing+=("$pkg")
	done
	((${#missing[@]})) || return 0
	if [[ $(id -u) -ne 0 || -n ${ACGREP_BENCH_NO_INSTALL:-} ]] || ! command -v apt-get >/dev/null; then
		die "missing Debian packages: ${missing[*]}; install them with: sudo apt-get install ${missing[*]}"
	fi
	say "installing: apt-get install -y --no-install-recommends ${missing[*]}"
	if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2; then
		say "running apt-get update once, then retrying"
		apt-get update >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2 ||
			die "apt-get install ${missing[*]} failed"
	fi
}

# need_python - Debian's python3 itself (the harness); scipy is asked for separately.
need_python() {
	[[ -x $PY ]] || need python3:/usr/bin/python3
}

# warm PATH... - read files (or whole trees) so they are in the page cache.
# This VM drops idle page cache after a few minutes: warm right before timing.
warm() {
	local p
	for p in "$@"; do
		if [[ -d $p ]]; then
			find "$p" -type f -print0 | xargs -0 cat >/dev/null
		else
			cat "$p" >/dev/null
		fi
	done
}

# ensure_acgrep - bring ./acgrep up to date with the working tree (make), so
# that the commit a result records is the one the binary was built from.
ensure_acgrep() {
	make -s -C "$REPO" acgrep >&2 || die "make -C $REPO acgrep failed (someone mid-edit? retry in a minute)"
}

# commit_of REPO - HEAD, marked when src/ or the Makefile has uncommitted changes.
commit_of() {
	local c dirty
	c=$(git -C "$1" rev-parse HEAD 2>/dev/null) || { echo "unknown (not a git checkout)"; return; }
	dirty=$(git -C "$1" status --porcelain -- src Makefile 2>/dev/null | wc -l)
	if ((dirty)); then
		echo "$c (+ $dirty uncommitted changes in src/, Makefile)"
	else
		echo "$c"
	fi
}

# producer BINARY - compiler and flags recorded in the binary's DWARF (built with -g).
producer() {
	local p
	p=$(readelf --debug-dump=info "$1" 2>/dev/null | sed -n 's/.*DW_AT_producer.*: //p' | sort | uniq -c | sort -rn | sed -n '1s/^ *[0-9]* //p')
	echo "${p:-unknown (no DWARF producer; built without -g?)}"
}

# machine_header TITLE COMMAND - the facts every result carries, as '#' lines.
machine_header() {
	local cpu cores
	cpu=$(sed -n '/^model name/{s/^[^:]*: //p;q}' /proc/cpuinfo)
	cores=$(nproc)
	printf '# %s\n' "$1"
	printf '# command: %s\n' "$2"
	printf '# date: %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	printf '# cpu: %s (%s cores online), %s MiB RAM, kernel %s, %s\n' "${cpu:-unknown}" "$cores" \
		"$(awk '/^MemTotal/{print int($2/1024)}' /proc/meminfo)" "$(uname -r)" \
		"$( (. /etc/os-release && echo "$PRETTY_NAME") 2>/dev/null || echo unknown OS)"
	printf '# compiler: %s; make flags: CFLAGS=%s (Makefile default -O2 -g)\n' \
		"$(first_line "${CC:-cc}" --version)" "${CFLAGS:-default}"
	printf '# acgrep commit: %s\n' "$(commit_of "$REPO")"
	if [[ -n ${ACGREP_BENCH_SOURCE:-} ]]; then
		printf '# built from: %s\n' "$ACGREP_BENCH_SOURCE"
	fi
}

# binary_facts LABEL BINARY - one '#' line: path, sha256, compiler flags from DWARF.
binary_facts() {
	printf '# %s: %s sha256 %.16s, %s\n' "$1" "$2" "$(sha256sum "$2" | cut -d' ' -f1)" "$(producer "$2")"
}

# tool_versions - one '#' line with the peers' versions (those installed).
tool_versions() {
	local v=() t
	for t in grep rg ugrep pcre2grep; do
		command -v "$t" >/dev/null || continue
		v+=("$(first_line "$t" --version)")
	done
	local IFS='|' all
	all=${v[*]}
	printf '# peers: %s\n' "${all//|/; }"
}

# apt_download DIR PKG... - fetch the packages' .deb files into DIR with
# `apt-get download` (never installed); as root, one `apt-get update` and a
# retry when the lists are missing, else the command to run is named.
apt_download() {
	local dir=$1 aptopt=()
	shift
	mkdir -p "$dir"
	# as root, apt's _apt sandbox user cannot write into a cache under /root
	if [[ $(id -u) -eq 0 ]]; then aptopt=(-o APT::Sandbox::User=root); fi
	say "downloading (apt-get download, not installing) into $dir: $*"
	(cd "$dir" && apt-get "${aptopt[@]}" download "$@" >&2) && return 0
	if [[ $(id -u) -eq 0 ]]; then
		say "apt-get download failed; running apt-get update once and retrying"
		apt-get update >&2
		(cd "$dir" && apt-get "${aptopt[@]}" download "$@" >&2)
	else
		die "apt-get download $* failed: the package lists may be missing; run: sudo apt-get update"
	fi
}

# need_corpus, need_quick_corpus - build the corpus (or the make-bench part)
# when its manifest is missing.
need_corpus() {
	[[ -s $BENCH_DIR/manifest.tsv ]] || "$PERF_DIR/corpus.sh"
}
need_quick_corpus() {
	[[ -s $BENCH_DIR/manifest-quick.tsv ]] || "$PERF_DIR/corpus.sh" --quick
}

# build_hs_count DIR - builds scripts/perf/hs_count.c (Hyperscan's literal
# engine as a library: libhyperscan-dev) as DIR/hs_count, with acgrep's
# allocator for large buffers (table.c, grow.c), which count_io.h reads
# inputs into.
build_hs_count() {
	need gcc:cc libhyperscan-dev:/usr/include/hs/hs.h
	"${CC:-cc}" -std=c11 -O2 -D_GNU_SOURCE -c -o "$1/table.o" "$REPO/src/engine/table.c" &&
		"${CC:-cc}" -std=c11 -O2 -D_GNU_SOURCE -c -o "$1/grow.o" "$REPO/src/engine/grow.c" &&
		"${CC:-cc}" -std=c11 -O2 -I"$REPO/src/engine" -o "$1/hs_count" "$PERF_DIR/hs_count.c" \
			"$1/table.o" "$1/grow.o" -lhs ||
		die "building hs_count failed"
}

# results_file NAME - where a result is kept: $BENCH_DIR/results/DATE-NAME.txt
results_file() {
	mkdir -p "$BENCH_DIR/results"
	echo "$BENCH_DIR/results/$(date -u +%Y%m%dT%H%M%SZ)-$1.txt"
}

# snapshot DIR [REV] - copy the sources acgrep is built from (Makefile, src/) into
# DIR: from the working tree (others may be editing it: one copy serves every
# build of an experiment), or from commit REV.  Prints what the copy is.
snapshot() {
	local dir=$1 rev=${2:-}
	mkdir -p "$dir"
	if [[ -n $rev ]]; then
		git -C "$REPO" archive "$rev" Makefile src | tar -x -C "$dir"
		echo "commit $(git -C "$REPO" rev-parse "$rev")"
	else
		cp -r "$REPO/Makefile" "$REPO/src" "$dir/"
		echo "working tree at $(commit_of "$REPO"), src/ sha256 $(cd "$dir" && { cat Makefile; find src -type f | LC_ALL=C sort | xargs cat; } | sha256sum | cut -c1-16)"
	fi
}

# build TREE NAME [MAKEVAR=VALUE]... - build TREE's acgrep with make in
# TREE/build-NAME (the binary target only: ./acgrep of the repo is never
# touched) and print the binary's path.
build() {
	local tree=$1 name=$2
	shift 2
	make -s -C "$tree" O="$tree/build-$name" "$@" "$tree/build-$name/acgrep" >&2 ||
		die "make -C $tree $* failed"
	echo "$tree/build-$name/acgrep"
}
