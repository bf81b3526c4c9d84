#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# corpus.sh - build acgrep's benchmark inputs, deterministically, outside the repo.
#
# Usage: scripts/perf/corpus.sh [--quick] [--force]
#
# Into $ACGREP_BENCH_DIR (default ${XDG_CACHE_HOME:-$HOME/.cache}/acgrep-bench):
#   english.txt      256 MiB of real English text: the text files, man pages, info
#                    manuals, changelogs and fortunes of the Debian packages in
#                    TEXT_PKGS (fetched with apt-get download, never installed),
#                    concatenated in sorted path order and repeated to 256 MiB
#   english-32M.txt  its first 32 MiB (make bench)
#   x100M.txt        100,000,000 'x' and a newline (the `xx|ab` workload)
#   linux/           the Linux source tree of the linux-source package
#   pat/             the pattern sets (see corpus.py: chosen by SHA-1 order)
#   manifest.tsv     one workload a line, with the count GNU grep -F prints for it
#   manifest-quick.tsv  the `make bench` subset, on english-32M.txt
#   corpus-info.txt  package versions, sizes and SHA-256 of every input
# --quick builds only what `make bench` needs (no Linux tree). --force rebuilds.
# Every run of peers.sh, compare.sh and quick.sh checks every tool's count
# against the manifest and fails loudly on a mismatch.
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

CORPUS_VERSION=1
TEXT_SIZE=$((256 << 20))
SLICE_SIZE=$((32 << 20))
# Debian packages whose English text makes english.txt. python3-doc and
# postgresql-doc are resolved to the versioned package they depend on.
TEXT_PKGS=(autoconf-doc bash-doc debian-policy debian-reference-en developers-reference
	fortunes git-doc gnu-standards jargon-text manpages manpages-dev perl-doc
	python3-doc postgresql-doc)
NAMES=(Guido Larry Linus Stallman Knuth)
LINUX_IDS=(kmalloc spin_lock_irqsave mutex_lock copy_from_user EXPORT_SYMBOL_GPL)
# print-n: the one of these whose line count in english.txt is nearest 1,000,000
PRINT_CANDIDATES=(to is ing and tion of)
DICT=/usr/share/dict/american-english-insane

quick=0 force=0
for a in "$@"; do
	case $a in
	--quick) quick=1 ;;
	--force) force=1 ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "corpus.sh: unknown argument $a (try --help)" ;;
	esac
done

if ! command -v apt-get >/dev/null || ! command -v dpkg-deb >/dev/null; then
	die "corpus.sh assembles its text from Debian packages: it needs apt-get and dpkg-deb (Debian, Ubuntu)"
fi
need_python
need wamerican-insane:"$DICT" xz-utils:xz
have_linux() { compgen -G '/usr/src/linux-source-*.tar.xz' >/dev/null; }
if ((!quick)) && ! have_linux; then
	need linux-source:linux-source-tarball-in-/usr/src # no such command: always installs
	have_linux || die "linux-source is installed but /usr/src has no linux-source-*.tar.xz"
fi

D=$BENCH_DIR
mkdir -p "$D"
if [[ -f $D/VERSION && $(cat "$D/VERSION") != "$CORPUS_VERSION" ]] || ((force)); then
	say "rebuilding the corpus in $D"
	rm -rf "$D/english.txt" "$D/english-32M.txt" "$D/english-unique.txt" "$D/x100M.txt" \
		"$D/pat" "$D/manifest.tsv" "$D/manifest-quick.tsv" "$D/corpus-info.txt" "$D/linux" "$D/debs"
fi
echo "$CORPUS_VERSION" >"$D/VERSION"
t0=$SECONDS

# resolve META PREFIX - the versioned package that META depends on (python3-doc -> python3.11-doc)
resolve() {
	local dep
	dep=$(apt-cache depends "$1" 2>/dev/null | awk '$1 == "Depends:" {print $2}' | grep -m1 "^$2" || true)
	echo "${dep:-$1}"
}

# ---- english.txt ---------------------------------------------------------
if [[ ! -s $D/english.txt || ! -s $D/english-32M.txt ]]; then
	pkgs=()
	for p in "${TEXT_PKGS[@]}"; do
		case $p in
		python3-doc) pkgs+=("$(resolve python3-doc 'python3\.[0-9]*-doc$')") ;;
		postgresql-doc) pkgs+=("$(resolve postgresql-doc 'postgresql-doc-[0-9]*$')") ;;
		*) pkgs+=("$p") ;;
		esac
	done
	apt_download "$D/debs" "${pkgs[@]}"
	src=$D/text-src
	rm -rf "$src"
	mkdir -p "$src"
	for p in "${pkgs[@]}"; do
		debs=("$D/debs/${p}"_*.deb)
		deb=${debs[-1]}
		mkdir -p "$src/$p"
		dpkg-deb -x "$deb" "$src/$p"
		printf '%s\t%s\n' "$p" "$(dpkg-deb -f "$deb" Version)"
	done >"$D/text-packages.tsv"
	say "assembling english.txt ($TEXT_SIZE bytes)"
	"$PY" "$PERF_DIR/corpus.py" text "$src" "$D/english-unique.txt" "$D/english.txt.tmp" \
		"$TEXT_SIZE" "$D/english-32M.txt.tmp" "$SLICE_SIZE"
	mv "$D/english-32M.txt.tmp" "$D/english-32M.txt"
	mv "$D/english.txt.tmp" "$D/english.txt"
	rm -rf "$src"
fi

# ---- x100M.txt -------------------------------------------------------------
if [[ ! -s $D/x100M.txt ]]; then
	say "writing x100M.txt"
	{ head -c 100000000 /dev/zero | tr '\0' x; echo; } >"$D/x100M.txt.tmp"
	mv "$D/x100M.txt.tmp" "$D/x100M.txt"
fi

# ---- the Linux tree --------------------------------------------------------
if ((!quick)) && [[ ! -f $D/linux/.done ]]; then
	tarball=$(printf '%s\n' /usr/src/linux-source-*.tar.xz | sort -V | tail -1)
	say "extracting $tarball into $D/linux"
	rm -rf "$D/linux"
	mkdir -p "$D/linux"
	tar -xJf "$tarball" -C "$D/linux"
	basename "$tarball" >"$D/linux/.done"
fi

# ---- pattern sets ------------------------------------------------------------
P=$D/pat
if [[ ! -s $P/absent1k.txt ]]; then
	say "choosing the pattern sets"
	rm -rf "$P"
	"$PY" "$PERF_DIR/corpus.py" patterns "$D/english-unique.txt" "$DICT" "$P"
	printf '%s\n' "${NAMES[@]}" >"$P/names5.txt"
	printf '%s\n' "${LINUX_IDS[@]}" >"$P/linux5.txt"
	printf 'xx\nab\n' >"$P/xxab.txt"
	grep -F -o -f "$P/absent-candidates.txt" "$D/english.txt" | sort -u >"$P/absent-present.txt" || true
	"$PY" "$PERF_DIR/corpus.py" absent "$P/absent-present.txt" "$P/absent-candidates.txt" "$P/absent1k.txt" 1000
	best='' bestd=''
	for w in "${PRINT_CANDIDATES[@]}"; do
		c=$(grep -F -c -e "$w" "$D/english.txt")
		d=$((c > 1000000 ? c - 1000000 : 1000000 - c))
		if [[ -z $bestd || $d -lt $bestd ]]; then best=$w bestd=$d; fi
	done
	printf '%s\n' "$best" >"$P/print1m.txt"
fi

# ---- expected counts (GNU grep -F is the reference) ----------------------------
# count KIND FLAGS INPUT PATTERNS - what every tool must report for a workload
count() {
	local kind=$1 flags=$2 input=$3 pat=$4
	# shellcheck disable=SC2086 # FLAGS is a list of options
	case $kind in
	lines) grep -F $flags -c -f "$pat" "$input" || [[ $? -eq 1 ]] ;;
	matches) grep -F $flags -o -f "$pat" "$input" | wc -l ;;
	print) grep -F $flags -c -f "$pat" "$input" ;; # lines that -n prints
	recursive) grep -F $flags -r -a -c -f "$pat" "$input" | awk -F: '{ s += $NF } END { print s + 0 }' ;;
	esac
}
size_of() {
	if [[ -d $1 ]]; then
		find "$1" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }'
	else
		stat -c %s "$1"
	fi
}
# manifest OUT LINE... - each LINE is "name|kind|input|patterns|flags|description"
manifest() {
	local out=$1 line name kind input pat flags desc n
	shift
	{
		printf '# name\tkind\tinput\tinput_bytes\tpatterns\tnpatterns\tflags\texpected\tdescription\n'
		for line in "$@"; do
			IFS='|' read -r name kind input pat flags desc <<<"$line"
			n=$(grep -c '' "$D/$pat")
			say "counting $name with grep -F"
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$kind" "$input" "$(size_of "$D/$input")" \
				"$pat" "$n" "$flags" "$(count "$kind" "$flags" "$D/$input" "$D/$pat")" "$desc"
		done
	} >"$out.tmp"
	mv "$out.tmp" "$out"
}

if [[ ! -s $D/manifest-quick.tsv ]]; then
	manifest "$D/manifest-quick.tsv" \
		"the|lines|english-32M.txt|pat/the.txt||1 common literal, -c" \
		"names5-i|lines|english-32M.txt|pat/names5.txt|-i|5 names, -i -c" \
		"words1k|lines|english-32M.txt|pat/words1k.txt||1,000 corpus words, -c" \
		"words1k-w|lines|english-32M.txt|pat/words1k.txt|-w|1,000 corpus words, -w -c" \
		"dict10k|lines|english-32M.txt|pat/dict10k.txt||10,000 dictionary words, -c" \
		"xxab|matches|x100M.txt|pat/xxab.txt||xx and ab over 100 MB of x, matches counted"
fi
# the full manifest's rows; a row added to this list after a corpus was built
# is counted and appended on the next run, without rebuilding the rest
if ((!quick)); then
	[[ -s $P/absent10.txt ]] || head -n 10 "$P/absent1k.txt" >"$P/absent10.txt"
	lxs=("$D"/linux/linux-source-*)
	lx=linux/${lxs[0]##*/}
	rows=(
		"rare|lines|english.txt|pat/rare.txt||1 rare literal, -c"
		"the|lines|english.txt|pat/the.txt||1 common literal, -c"
		"names5|lines|english.txt|pat/names5.txt||5 names, -c"
		"names5-i|lines|english.txt|pat/names5.txt|-i|5 names, -i -c"
		"absent10|lines|english.txt|pat/absent10.txt||10 absent 12-byte strings, -c"
		"lit32x20|lines|english.txt|pat/lit32x20.txt||20 literals of 32 bytes, -c"
		"words100|lines|english.txt|pat/words100.txt||100 corpus words, -c"
		"words1k|lines|english.txt|pat/words1k.txt||1,000 corpus words, -c"
		"words1k-i|lines|english.txt|pat/words1k.txt|-i|1,000 corpus words, -i -c"
		"words1k-w|lines|english.txt|pat/words1k.txt|-w|1,000 corpus words, -w -c"
		"absent1k|lines|english.txt|pat/absent1k.txt||1,000 absent 12-byte strings, -c"
		"dict10k|lines|english.txt|pat/dict10k.txt||10,000 dictionary words, -c"
		"dict100k|lines|english.txt|pat/dict100k.txt||100,000 dictionary words, -c"
		"dict-all|lines|english.txt|pat/dict-all.txt||all of wamerican-insane, -c"
		"xxab|matches|x100M.txt|pat/xxab.txt||xx and ab over 100 MB of x, matches counted"
		"xxab-c|lines|x100M.txt|pat/xxab.txt||xx and ab over 100 MB of x, -c"
		"print-n|print|english.txt|pat/print1m.txt||~1M matching lines printed with -n"
		"linux-r|recursive|$lx|pat/linux5.txt||-r -c over the Linux tree, 5 identifiers"
	)
	if [[ ! -s $D/manifest.tsv ]]; then
		manifest "$D/manifest.tsv" "${rows[@]}"
	else
		missing=()
		for row in "${rows[@]}"; do
			grep -q "^${row%%|*}	" "$D/manifest.tsv" || missing+=("$row")
		done
		if ((${#missing[@]})); then
			manifest "$D/manifest-new.tsv" "${missing[@]}"
			tail -n +2 "$D/manifest-new.tsv" >>"$D/manifest.tsv"
			rm -f "$D/manifest-new.tsv"
		fi
	fi
	absent=$(awk -F'\t' '$1 == "absent1k" { print $8 }' "$D/manifest.tsv")
	[[ $absent == 0 ]] || die "absent1k: grep -F counts $absent lines, expected 0"
	absent=$(awk -F'\t' '$1 == "absent10" { print $8 }' "$D/manifest.tsv")
	[[ $absent == 0 ]] || die "absent10: grep -F counts $absent lines, expected 0"
	xx=$(awk -F'\t' '$1 == "xxab" { print $8 }' "$D/manifest.tsv")
	[[ $xx == 50000000 ]] || die "xxab: grep -F -o counts $xx matches, expected 50000000"
fi

{
	echo "# acgrep benchmark corpus, version $CORPUS_VERSION, built $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "# text packages (name, version):"
	sed 's/^/#   /' "$D/text-packages.tsv" 2>/dev/null || true
	echo "# dictionary: $(dpkg-query -W -f '${Package} ${Version}' wamerican-insane 2>/dev/null || echo "$DICT")"
	if [[ -f $D/linux/.done ]]; then
		lxpkg=$(basename "$(cat "$D/linux/.done")" .tar.xz)
		echo "# linux: $(dpkg-query -W -f '${Package} ${Version}' "$lxpkg" 2>/dev/null || echo "$lxpkg"), $(find "$D/linux" -type f | wc -l) files"
	fi
	echo "# grep: $(first_line grep --version)"
	echo "# sha256, bytes, file:"
	(cd "$D" && for f in english.txt english-32M.txt english-unique.txt x100M.txt pat/*.txt; do
		printf '%s  %s  %s\n' "$(sha256sum "$f" | cut -d' ' -f1)" "$(stat -c %s "$f")" "$f"
	done)
} >"$D/corpus-info.txt"
say "corpus ready in $D ($((SECONDS - t0)) s, $(du -sh "$D" | cut -f1))"
