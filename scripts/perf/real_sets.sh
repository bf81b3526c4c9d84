#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# real_sets.sh - pattern lists a user would bring, from Debian packages, and
# texts to search with them, deterministically.
#
# Usage: scripts/perf/real_sets.sh [--force] [--mb N]
#
# Into $ACGREP_BENCH_DIR/real/ (default ~/.cache/acgrep-bench/real):
#   debs/, src/        the packages (apt-get download, never installed), unpacked
#   blocklist.txt      the domains of EasyList's and EasyPrivacy's `||domain^`
#                      rules (webext-ublock-origin-firefox): one a line, sorted,
#                      deduplicated, as a user builds a blocklist
#   adapters.tsv       FastQC's adapter_list.txt (fastqc), a tagged list as it is
#                      (name, TABs, sequence) less its comment and blank lines
#                      (which --tagged-file skips; grep -f would not)
#   oui.tsv            ieee-data's oui.txt as VENDOR<TAB>00:1A:2B and
#                      VENDOR<TAB>00-1A-2B (a MAC prefix as logs write it: colon
#                      form in Linux logs, hyphen form in RADIUS and Windows ones)
#   *.txt of the two   adapters.txt, oui.txt: the patterns alone (for grep -f, rg -f)
#   urls.log           a squid access log and dnsmasq query log (real_sets.py urls)
#   reads.fastq        Illumina-style reads with the adapters planted at known rates
#   dhcp.log           a gateway's syslog of DHCP leases, RADIUS logins, firewall drops
#   expected/NAME.tsv  the per-pattern counts (`--count-per-pattern` rows) of each
#                      workload, from tests/diff/pattern_oracle.py
#   manifest.tsv       the workloads: list, text, flags, expected lines and matches
#                      (oracle, checked with grep -F), keys seen, planted counts
#   info.txt           package versions, sizes, SHA-256 of every file
# Each text is about N MiB (--mb, default 64).  Every expected count is the
# oracle's and is checked three ways with GNU grep -F before it is written: -c
# (lines), -o counted (matches), and -o -n credited per pattern by
# `real_sets.py crosscheck` (the whole table).  Idempotent: what exists is kept;
# --force (or another --mb) builds it again.
set -euo pipefail
# shellcheck source=scripts/perf/lib.sh
. "$(dirname "$0")/lib.sh"

REAL_VERSION=1
PKGS=(webext-ublock-origin-firefox fastqc ieee-data)
ORACLE=$REPO/tests/diff/pattern_oracle.py
GEN=$PERF_DIR/real_sets.py

force=0 mb=64
while (($#)); do
	case $1 in
	--force) force=1 ;;
	--mb) mb=${2:?--mb needs a number}; shift ;;
	--mb=*) mb=${1#--mb=} ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "real_sets.sh: unknown argument $1 (try --help)" ;;
	esac
	shift
done
[[ $mb =~ ^[1-9][0-9]*$ ]] || die "--mb takes a whole number of MiB, not $mb"

if ! command -v apt-get >/dev/null || ! command -v dpkg-deb >/dev/null; then
	die "real_sets.sh takes its lists from Debian packages: it needs apt-get and dpkg-deb (Debian, Ubuntu)"
fi
need_python

R=$BENCH_DIR/real
stamp="$REAL_VERSION $mb"
if [[ -d $R && ($force -eq 1 || $(cat "$R/VERSION" 2>/dev/null) != "$stamp") ]]; then
	say "rebuilding the real sets in $R (version/size: $stamp)"
	rm -rf "$R"
fi
mkdir -p "$R/expected"
echo "$stamp" >"$R/VERSION"
t0=$SECONDS

# ---- packages ------------------------------------------------------------------
deb_of() {
	local debs=("$R/debs/$1"_*.deb)
	[[ -e ${debs[-1]} ]] || return 1
	echo "${debs[-1]}"
}
missing=()
for p in "${PKGS[@]}"; do deb_of "$p" >/dev/null || missing+=("$p"); done
((${#missing[@]} == 0)) || apt_download "$R/debs" "${missing[@]}"
for p in "${PKGS[@]}"; do
	if [[ ! -d $R/src/$p ]]; then
		mkdir -p "$R/src/$p.tmp"
		dpkg-deb -x "$(deb_of "$p")" "$R/src/$p.tmp"
		mv "$R/src/$p.tmp" "$R/src/$p"
	fi
done
# find_one PKG NAME - the one file called NAME that PKG ships
find_one() {
	local f
	f=$(find "$R/src/$1" -type f -name "$2")
	[[ -n $f && $f != *$'\n'* ]] || die "$1 ships ${f:+more than }one file called $2: '${f:-none}'"
	echo "$f"
}

# ---- the lists ---------------------------------------------------------------------
# Each as a user would make it, with the tools at hand.  LC_ALL=C throughout (lib.sh).
if [[ ! -s $R/blocklist.txt ]]; then
	# `||example.com^` blocks the domain and its subdomains; rules with options
	# ($third-party...), paths or wildcards are not plain domains and stay out.
	grep -h '^||[^/^*$|]*\^$' "$(find_one webext-ublock-origin-firefox easylist.txt)" \
		"$(find_one webext-ublock-origin-firefox easyprivacy.txt)" |
		sed 's/^||//; s/\^$//' | sort -u >"$R/blocklist.txt.tmp"
	mv "$R/blocklist.txt.tmp" "$R/blocklist.txt"
fi
if [[ ! -s $R/adapters.tsv ]]; then
	# the list is already NAME<TABs>SEQUENCE; its '#' comments and blank
	# line, which --tagged-file skips, are left out for the other tools
	grep -v -e '^#' -e '^$' "$(find_one fastqc adapter_list.txt)" >"$R/adapters.tsv.tmp"
	mv "$R/adapters.tsv.tmp" "$R/adapters.tsv"
fi
if [[ ! -s $R/oui.tsv ]]; then
	# oui.txt has CRLF ends and blocks of "00-22-72   (hex)<TAB><TAB>Vendor";
	# in IEEE's order, each prefix in colon form, then in hyphen form
	tr -d '\r' <"$(find_one ieee-data oui.txt)" |
		sed -n 's/^\([0-9A-F][0-9A-F]\)-\([0-9A-F][0-9A-F]\)-\([0-9A-F][0-9A-F]\) *(hex)\t*\(.*[^ ]\) *$/\4\t\1:\2:\3\n\4\t\1-\2-\3/p' \
			>"$R/oui.tsv.tmp"
	mv "$R/oui.tsv.tmp" "$R/oui.tsv"
fi
for l in adapters oui; do
	# the patterns alone: what grep -F -f and rg -F -f take (the tag rule: text
	# before the first TAB, then every TAB; the tags hold no TAB)
	[[ -s $R/$l.txt ]] || sed 's/^[^\t]*\t*//' "$R/$l.tsv" >"$R/$l.txt"
done

# ---- the texts ------------------------------------------------------------------------
bytes=$((mb << 20))
gen() { # gen KIND LIST OUT - a text and what was planted in it
	if [[ ! -s $R/$3 || ! -s $R/$3.planted ]]; then
		say "writing $3 ($mb MiB)"
		"$PY" "$GEN" "$1" "$R/$2" "$R/$3.tmp" "$bytes" >"$R/$3.planted.tmp"
		mv "$R/$3.tmp" "$R/$3"
		mv "$R/$3.planted.tmp" "$R/$3.planted"
	fi
}
gen urls blocklist.txt urls.log
gen reads adapters.tsv reads.fastq
gen maclog oui.tsv dhcp.log

# ---- expected counts, checked with grep -F -----------------------------------------------
# workload NAME LIST FLAGS TEXT DESCRIPTION: LIST is the .tsv (tagged) or .txt
# (plain) list; grep gets the plain one.
rows=()
workload() {
	local name=$1 list=$2 flags=$3 text=$4 desc=$5 plain exp gl go gx om ol keys planted
	local -a fl src
	read -r -a fl <<<"$flags"
	if [[ $list == *.tsv ]]; then
		plain=${list%.tsv}.txt
		src=(--tagged-file "$R/$list")
	else
		plain=$list
		src=(-f "$R/$list")
	fi
	exp=$R/expected/$name.tsv
	if [[ ! -s $exp || ! -s $exp.totals ]]; then
		say "$name: counting with pattern_oracle.py, checking with grep -F"
		"$PY" "$ORACLE" "${fl[@]}" "${src[@]}" "$R/$text" >"$exp.tmp" || [[ $? -eq 1 ]]
		"$PY" "$ORACLE" "${fl[@]}" --totals "${src[@]}" "$R/$text" >"$exp.totals.tmp" || [[ $? -eq 1 ]]
		read -r om ol _ <"$exp.totals.tmp"
		gl=$(grep -F "${fl[@]}" -c -f "$R/$plain" "$R/$text" || [[ $? -eq 1 ]])
		go=$(grep -F "${fl[@]}" -o -f "$R/$plain" "$R/$text" | wc -l)
		[[ $gl == "$ol" ]] || die "$name: grep -F -c counts $gl lines, the oracle $ol"
		[[ $go == "$om" ]] || die "$name: grep -F -o prints $go matches, the oracle counts $om"
		gx=$R/expected/$name.grep.tmp
		grep -F "${fl[@]}" -o -n -f "$R/$plain" "$R/$text" |
			"$PY" "$GEN" crosscheck "${fl[@]}" "${src[@]}" >"$gx"
		cmp -s "$gx" "$exp.tmp" ||
			die "$name: the per-pattern rows from grep -F -o -n ($gx) differ from the oracle's ($exp.tmp)"
		rm -f "$gx"
		mv "$exp.tmp" "$exp"
		mv "$exp.totals.tmp" "$exp.totals"
	fi
	read -r om ol _ <"$exp.totals"
	# keys: the rows --include-zero would print (tags, or distinct patterns)
	keys=$({ "$PY" "$ORACLE" "${fl[@]}" --include-zero "${src[@]}" /dev/null || [[ $? -eq 1 ]]; } | wc -l)
	planted=$(awk -F'\t' '$1 == "planted" { s += $2 } END { print s + 0 }' "$R/$text.planted")
	rows+=("$(printf '%s\t' "$name" "$list" "$plain" "$text" "$(stat -c %s "$R/$text")" "$flags" \
		"$(grep -c '' "$R/$list")" "$keys" "$(grep -c '' "$exp")" "$ol" "$om" "$planted")$desc")
}
workload blocklist blocklist.txt "" urls.log "EasyList+EasyPrivacy domains over a proxy/DNS log"
workload blocklist-w blocklist.txt "-w" urls.log "the same, -w (no match inside a longer name)"
workload adapters adapters.tsv "" reads.fastq "FastQC's adapters (tagged) over FASTQ reads"
workload oui oui.tsv "-i" dhcp.log "IEEE OUIs (tagged by vendor, both forms) over a DHCP/RADIUS/firewall log, -i"
{
	printf '# name\tlist\tplain\ttext\ttext_bytes\tflags\tpatterns\tkeys\tkeys_matched\texpected_lines\texpected_matches\tplanted\tdescription\n'
	printf '%s\n' "${rows[@]}"
} >"$R/manifest.tsv"

# ---- what was built -------------------------------------------------------------------------
{
	echo "# acgrep real pattern sets, version $REAL_VERSION, $mb MiB texts, built $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "# packages (name, version, licence of the list):"
	for p in "${PKGS[@]}"; do
		printf '#   %s %s\n' "$p" "$(dpkg-deb -f "$(deb_of "$p")" Version)"
	done
	echo "#   EasyList/EasyPrivacy: GPL-3+ or CC-BY-SA-3.0+; FastQC: GPL-3+; IEEE OUI listing: no copyright asserted"
	echo "# grep: $(first_line grep --version)"
	echo "# sha256, bytes, lines, file:"
	(cd "$R" && for f in blocklist.txt adapters.tsv adapters.txt oui.tsv oui.txt urls.log reads.fastq dhcp.log; do
		printf '%s  %s  %s  %s\n' "$(sha256sum "$f" | cut -d' ' -f1)" "$(stat -c %s "$f")" "$(grep -c '' "$f")" "$f"
	done)
	echo "# planted (what the generators put in on purpose):"
	for t in urls.log reads.fastq dhcp.log; do sed "s/^/#   $t: /" "$R/$t.planted"; done
} >"$R/info.txt"
column -t -s $'\t' "$R/manifest.tsv" >&2 || cat "$R/manifest.tsv" >&2
say "real sets ready in $R ($((SECONDS - t0)) s, $(du -sh "$R" | cut -f1))"
