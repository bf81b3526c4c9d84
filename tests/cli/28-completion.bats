#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Shell completions (acgrep --generate=complete-bash|zsh|fish): each shell,
# running the script non-interactively, completes every long option that
# --help lists, and the choices of enumerated arguments.  A test skips only
# when its shell is not installed.

load helpers

# --help's long options, once for the file.
setup_file() {
	acgrep_is_grep && return
	"$ACGREP" --help | grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u >"$BATS_FILE_TMPDIR/help-opts"
}

setup() {
	common_setup
	acgrep_is_grep && skip "completions are acgrep's"
	[[ -s $BATS_FILE_TMPDIR/help-opts ]]
}

needs_shell() {
	command -v "$1" >/dev/null || skip "$1 is not installed"
}

# every_help_option FILE: every --help option is a line of FILE
every_help_option() {
	local missing
	missing=$(sort -u "$1" | comm -23 "$BATS_FILE_TMPDIR/help-opts" -)
	[[ -z $missing ]] || { echo "not completed: $missing"; return 1; }
}

# bash_complete WORD...: the completions bash offers for the last WORD
bash_complete() {
	bash --norc --noprofile -c 'source "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _acgrep
		printf "%s\n" "${COMPREPLY[@]}"' _ "$OUTD/acgrep.bash" "$@"
}

# fish_complete LINE: what fish offers at the end of LINE, descriptions cut
fish_complete() {
	fish --no-config -c 'source $argv[1]; complete -C$argv[2]' "$OUTD/acgrep.fish" "$1" | cut -f1
}

@test "--generate: an unknown KIND is a usage error" {
	run "$ACGREP" --generate=complete-tcsh
	assert_failure 2
	assert_line --partial "invalid argument"
}

@test "bash: complete -p names _acgrep, every --help option completes" {
	needs_shell bash
	"$ACGREP" --generate=complete-bash >"$OUTD/acgrep.bash"
	run bash --norc --noprofile -c 'source "$1" && complete -p acgrep' _ "$OUTD/acgrep.bash"
	assert_success
	assert_output "complete -F _acgrep acgrep"
	bash_complete acgrep -- | sed 's/=$//' >"$OUTD/got"
	every_help_option "$OUTD/got"
}

@test "bash: choices, files, and short options" {
	needs_shell bash
	"$ACGREP" --generate=complete-bash >"$OUTD/acgrep.bash"
	run bash_complete acgrep --binary-files=w
	assert_output "--binary-files=without-match"
	run bash_complete acgrep --directories = r  # "=" as a word break
	assert_output $'read\nrecurse'
	run bash_complete acgrep -d s
	assert_output skip
	run bash_complete acgrep --engine ''
	assert_output $'ac\npcre2'
	touch pats.txt
	run bash_complete acgrep -f pat
	assert_output pats.txt
	run bash_complete acgrep -i
	assert_output -i
	run bash_complete acgrep --no-m
	assert_output $'--no-messages\n--no-mmap'
}

@test "zsh: _arguments gets every --help option, with choices" {
	needs_shell zsh
	"$ACGREP" --generate=complete-zsh >"$OUTD/_acgrep"
	run head -n 1 "$OUTD/_acgrep"
	assert_output "#compdef acgrep"
	# the completion function, run with an _arguments that prints its specs
	zsh -f -c '_arguments() { print -rl -- "$@" }; source "$1"' _ "$OUTD/_acgrep" >"$OUTD/specs"
	sed -nE 's/^\*?(--[a-z0-9-]+).*/\1/p' "$OUTD/specs" >"$OUTD/got"
	every_help_option "$OUTD/got"
	run grep -F -- '--binary-files=' "$OUTD/specs"
	assert_output --partial ':TYPE:(binary text without-match)'
	run grep -E -- '^\*-f\+' "$OUTD/specs"
	assert_output --partial ':FILE:_files'
}

# zsh_complete LINE: the words zsh's completion system offers after LINE
zsh_complete() {
	rm -f "$OUTD/offered"
	timeout 120 zsh -f "$BATS_TEST_DIRNAME/zsh-complete.zsh" "$OUTD" "$OUTD/offered" "$1" &&
		sort -u "$OUTD/offered"
}

@test "zsh: compinit's completion offers every --help option and the choices" {
	needs_shell zsh
	"$ACGREP" --generate=complete-zsh >"$OUTD/_acgrep"
	zsh_complete "acgrep --" >"$OUTD/got"
	every_help_option "$OUTD/got"
	run zsh_complete "acgrep --binary-files="
	assert_line without-match
	assert_line text
	run zsh_complete "acgrep -d "
	assert_line recurse
	run zsh_complete "acgrep --color="
	assert_line always
}

@test "fish: complete -C lists every --help option and the choices" {
	needs_shell fish
	"$ACGREP" --generate=complete-fish >"$OUTD/acgrep.fish"
	fish --no-config -c 'source $argv[1]; complete -C"acgrep --"' "$OUTD/acgrep.fish" |
		cut -f1 | sed 's/=.*//' >"$OUTD/got"
	every_help_option "$OUTD/got"
	run fish_complete "acgrep --directories "
	assert_output $'read\nrecurse\nskip'
	run fish_complete "acgrep --eng"
	assert_output --engine
}
