# SPDX-License-Identifier: MIT
# per_pattern.bash - what the tests of --count-per-pattern, --overlapping
# and --all-patterns share (31-*.bats load it after helpers).
#
# Their output must be byte-identical on every way a search can run, so
# each exact check runs in every variant below and both locales.

# The variants: every scan path, the scalar prefilters, both I/O paths
# (1-byte reads), one thread, and three threads on files cut into
# segments of a few bytes (cuts where 5-byte reads start).
PP_VARIANTS=(
	"--threads=1"
	"--scan-path=dfa" "--scan-path=bitmap" "--scan-path=memchr" "--scan-path=teddy"
	"--scan-path=hash" "--simd=scalar"
	"--mmap" "--no-mmap --buffer-size=1"
	"--threads=3 --segment-size=7 --buffer-size=5"
)

# expect_all STATUS FORMAT [ARGS...] -- ACGREP-ARGS...: `expect` (exact
# stdout bytes and status, nothing on stderr) in LC_ALL=C and C.UTF-8,
# each with every variant of PP_VARIANTS put before ACGREP-ARGS; untraced
# (helpers.bash).
expect_all() {
	untraced _expect_all "$@"
}

_expect_all() {
	local -a args=("$@") extra
	local cut loc v
	for ((cut = 0; cut < ${#args[@]}; cut++)); do
		[[ ${args[cut]} == -- ]] && break
	done
	for loc in C C.UTF-8; do
		for v in "${PP_VARIANTS[@]}"; do
			read -r -a extra <<<"$v"
			LC_ALL=$loc note_case "LC_ALL=$loc $v" \
				expect "${args[@]:0:cut+1}" "${extra[@]}" "${args[@]:cut+1}" || return 1
			LC_ALL=$loc note_case "LC_ALL=$loc $v" expect_no_stderr || return 1
		done
	done
}

# he_she: two files of the classic set's text, 26 and 17 bytes (split by
# the variant with segments of 7 bytes).
he_she() {
	fixture a 'ushers\nhishe\nhershe\nnothing\n'
	fixture b 'she sells\nhe\nxx\n'
}
