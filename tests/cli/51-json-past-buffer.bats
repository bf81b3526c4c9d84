#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# --json records longer than the output buffer (256 KiB): written whole
# while the buffer keeps a mapped search's output since its checkpoint, or
# holds an input's output until --all-patterns' verdict, where nothing may
# be handed on and the buffer must grow for the record.

load helpers
load report

setup() {
	common_setup
	skip_if_grep "--json"
	command -v python3 >/dev/null || skip "python3 is needed to write the records"
}

# mask_times: the timing fields zeroed (they are all a test cannot know).
mask_times() {
	sed -E -e 's/"(secs|nanos)":[0-9]+/"\1":0/g' -e 's/"human":"[0-9]+\.[0-9]{6}s"/"human":"0.000000s"/g'
}

VARIANTS=(
	"--mmap" "--no-mmap" "--no-mmap --buffer-size=1" "--threads=1" "--threads=3 --segment-size=7"
	"--mmap --all-patterns" "--no-mmap --all-patterns" "--threads=3 --all-patterns"
)

# in: a UTF-8 line and one that is not, each past the buffer; expected:
# their begin and match records as ripgrep writes them.
long_lines() {
	python3 - <<'EOF'
import base64
a = b"x" * 300000 + b" needle\n"
b = b"\xff" * 300000 + b" needle yy\n"
open("in", "wb").write(a + b)
def sub(text, start, pattern):
    return ('{"match":{"text":"%s"},"start":%d,"end":%d,"pattern":%d,"tag":{"text":"%s"}}'
            % (text, start, start + len(text), pattern, text))
head = '{"type":"match","data":{"path":{"text":"in"},'
rec = ['{"type":"begin","data":{"path":{"text":"in"}}}',
       head + '"lines":{"text":"%s\\n"},"line_number":1,"absolute_offset":0,"submatches":[%s]}}'
       % (a[:-1].decode(), sub("needle", 300001, 1)),
       head + '"lines":{"bytes":"%s"},"line_number":2,"absolute_offset":%d,"submatches":[%s,%s]}}'
       % (base64.b64encode(b).decode(), len(a), sub("needle", 300001, 1), sub("yy", 300008, 2))]
open("expected", "w").write("\n".join(rec) + "\n")
EOF
}

@test "json: records past the output buffer, kept or held, are written whole" {
	long_lines
	local v loc
	for loc in C C.UTF-8; do
		for v in "" "${VARIANTS[@]}"; do
			# shellcheck disable=SC2086 # v is a word list
			LC_ALL=$loc run_ac --json $v -e needle -e yy in
			expect_status 0 || return 1
			expect_no_stderr || return 1
			head -n 3 "$OUTD/ac.out" >"$OUTD/records"
			same_bytes expected "$OUTD/records" || {
				echo "# records differ: $(_ac_where)" >&2
				return 1
			}
			[[ $(sed -n 4p "$OUTD/ac.out") == '{"type":"end","data":{"path":{"text":"in"}'* ]] || return 1
		done
	done
	same_everywhere --json -e needle -e yy in
}
