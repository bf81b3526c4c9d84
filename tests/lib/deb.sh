#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# deb.sh - check the Debian packages make deb built: each holds what it
# should, and unpacked into a scratch root (dpkg -x) they pass
# tests/lib/installed.sh.  As root with CI set (a throwaway machine), the
# packages are also installed with dpkg -i, checked at /, and purged.
# TAP output.
#
# Usage: tests/lib/deb.sh DEB_DIR
set -u
cd "$(dirname "$0")/../.."
dir=$1
arch=$(dpkg-architecture -qDEB_HOST_ARCH) multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
version=$(sed -n 's/^#define ACGREP_VERSION "\(.*\)"/\1/p' src/cli/help.h)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 st=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; st=1; }
# renumber: passes installed.sh's TAP on with this script's numbers
renumber() {
	local line
	while IFS= read -r line; do
		case $line in
		"ok "*) ok "$1: ${line#ok * - }" ;;
		"not ok "*) not_ok "$1: ${line#not ok * - }" ;;
		1..*) ;;
		*) echo "$line" ;;
		esac
	done
}

debs=()
for p in acgrep libacgrep0 libacgrep-dev python3-acgrep; do
	f=$dir/${p}_${version}_$arch.deb
	if [[ -f $f ]]; then
		ok "$p built"
		debs+=("$f")
		dpkg-deb -x "$f" "$tmp/root"
	else
		not_ok "$p built ($f)"
	fi
done
contents() { dpkg-deb -c "$1" | awk '{ print $6 }' | sed 's|^\./|/|'; }
check_has() { # PACKAGE PATH
	contents "$dir/${1}_${version}_$arch.deb" | grep -qx -- "$2" && ok "$1 has $2" || not_ok "$1 has $2"
}
check_has acgrep /usr/bin/acgrep
check_has acgrep /usr/share/zsh/vendor-completions/_acgrep
check_has libacgrep0 "/usr/lib/$multiarch/libacgrep.so.0"
check_has libacgrep-dev /usr/include/acgrep.h
check_has libacgrep-dev "/usr/lib/$multiarch/pkgconfig/acgrep.pc"
check_has libacgrep-dev /usr/share/doc/libacgrep-dev/examples/count_patterns.c
pydir=/usr/lib/python3/dist-packages/acgrep
check_has python3-acgrep $pydir/_engine.abi3.so
check_has python3-acgrep $pydir/__init__.pyi

# imports ROOT LABEL: python3 imports the module from ROOT and finds matches
imports() {
	local site=${1%/}/usr/lib/python3/dist-packages got
	got=$(PYTHONPATH=$site /usr/bin/python3 -c 'import acgrep
print(acgrep.__file__, list(acgrep.Set(["he", "she"], overlapping=True).find_iter("ushe")))' 2>&1)
	if [[ $got == "$site/acgrep/__init__.py [(1, 4, 1), (2, 4, 0)]" ]]; then
		ok "$2: python3 imports acgrep"
	else
		not_ok "$2: python3 imports acgrep"
		echo "# $got"
	fi
}

# installed ROOT LABEL: installed.sh on ROOT, its TAP renumbered as ours
installed() {
	tests/lib/installed.sh "$1" "/usr/lib/$multiarch" >"$tmp/installed.tap" || st=1
	renumber "$2" <"$tmp/installed.tap"
}
installed "$tmp/root" "dpkg -x root"
imports "$tmp/root" "dpkg -x root"

if [[ ${CI:-} == true && $(id -u) == 0 ]]; then
	if dpkg -i "${debs[@]}" >"$tmp/dpkg.log" 2>&1; then
		ok "dpkg -i"
		installed / "dpkg -i"
		imports / "dpkg -i"
		dpkg --purge acgrep libacgrep-dev libacgrep0 python3-acgrep >>"$tmp/dpkg.log" 2>&1 && ok "dpkg --purge" ||
			{ not_ok "dpkg --purge"; sed 's/^/# /' "$tmp/dpkg.log"; }
	else
		not_ok "dpkg -i"
		sed 's/^/# /' "$tmp/dpkg.log"
	fi
fi
echo "1..$n"
exit $st
