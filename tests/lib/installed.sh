#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# installed.sh - check an installed acgrep: the binary runs (--version, a
# search), the man pages and completions are where they belong, and the
# example program compiles and links through pkg-config against the
# installed libacgrep, dynamically and statically, with exact output.
# TAP output.
#
# Usage: tests/lib/installed.sh ROOT LIBDIR
#   ROOT: what was installed into (a DESTDIR, a dpkg -x root, or /)
#   LIBDIR: the library directory inside it (/usr/lib, /usr/lib/TRIPLET)
set -u
cd "$(dirname "$0")/../.."
root=${1%/} libdir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 st=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; st=1; }
check() { # NAME EXPECTED COMMAND...: COMMAND's output (stderr too) is EXPECTED
	local name=$1 want=$2 got
	shift 2
	got=$("$@" 2>&1) && [[ $got == "$want" ]] && ok "$name" ||
		{ not_ok "$name"; printf '# want: %q\n#  got: %q\n' "$want" "$got"; }
}
# present PATH: an installed file, perhaps compressed (.gz), or a link
present() {
	[[ -e $root$1 || -e $root$1.gz || -L $root$1 || -L $root$1.gz ]] && ok "installed: $1" ||
		not_ok "installed: $1"
}

bin=$root/usr/bin/acgrep
version=$(sed -n 's/^#define ACGREP_VERSION "\(.*\)"/\1/p' src/cli/help.h)
check "acgrep --version" "acgrep $version" sh -c '"$1" --version | head -n 1 | cut -d" " -f1,2' _ "$bin"
check "a search" $'2:beta\n3:alphabet' sh -c 'printf "alpha\nbeta\nalphabet\n" | "$1" -n -e bet -e zeta' _ "$bin"
check "no match: status 1" 1 sh -c 'echo x | "$1" -q y; echo $?' _ "$bin"

for f in /usr/share/man/man1/acgrep.1 /usr/share/man/man3/libacgrep.3 /usr/share/man/man3/acgrep_scan.3 \
	/usr/share/bash-completion/completions/acgrep /usr/share/zsh/vendor-completions/_acgrep \
	/usr/share/fish/vendor_completions.d/acgrep.fish /usr/include/acgrep.h \
	"$libdir/libacgrep.so.0" "$libdir/libacgrep.a" "$libdir/pkgconfig/acgrep.pc"; do
	present "$f"
done
check "the bash completion loads" "complete -F _acgrep acgrep" \
	bash --norc --noprofile -c 'source "$1" && complete -p acgrep' _ "$root/usr/share/bash-completion/completions/acgrep"

# pkg-config over the installed acgrep.pc; outside / through its sysroot
export PKG_CONFIG_PATH=$root$libdir/pkgconfig PKG_CONFIG_LIBDIR=$root$libdir/pkgconfig
[[ -n $root ]] && export PKG_CONFIG_SYSROOT_DIR=$root
check "pkg-config --modversion acgrep" "$version" pkg-config --modversion acgrep
cc=${CC:-cc}
printf 'he\nshe\nhis\nhers\n' >"$tmp/pats"
printf 'ushers\nHIS hers\n' >"$tmp/text"
if $cc -o "$tmp/dyn" examples/count_patterns.c $(pkg-config --cflags --libs acgrep) 2>"$tmp/err"; then
	ok "the example links through pkg-config"
else
	not_ok "the example links through pkg-config"; sed 's/^/# /' "$tmp/err"
fi
check "the example runs on the installed libacgrep.so.0" $'2\the\n1\tshe\n1\this\n2\thers' \
	env LD_LIBRARY_PATH="$root$libdir" "$tmp/dyn" -a -i "$tmp/pats" "$tmp/text"
check "it needs libacgrep.so.0" "libacgrep.so.0" sh -c 'objdump -p "$1" | awk '\''$1 == "NEEDED" && /acgrep/ { print $2 }'\' _ "$tmp/dyn"
if $cc -o "$tmp/static" examples/count_patterns.c $(pkg-config --cflags acgrep) \
	-Wl,-Bstatic $(pkg-config --static --libs-only-L --libs-only-l acgrep) -Wl,-Bdynamic \
	$(pkg-config --static --libs-only-other acgrep) 2>"$tmp/err"; then
	ok "the example links statically through pkg-config --static"
else
	not_ok "the example links statically through pkg-config --static"; sed 's/^/# /' "$tmp/err"
fi
check "the static example runs" $'1\tshe\n1\thers' "$tmp/static" "$tmp/pats" "$tmp/text"
echo "1..$n"
exit $st
