# SPDX-License-Identifier: MIT
# zsh-complete.zsh - zsh's own completion system on one command line, for
# 28-completion.bats: an interactive zsh on a pseudo-terminal (zpty) loads
# compinit with the completion functions in DIR, types LINE and Tab, and
# every word the completion offers (compadd's arguments and the arrays it
# is given) is appended to OUT, one per line.
#
# Usage: zsh -f zsh-complete.zsh DIR OUT LINE
zmodload zsh/zpty || exit 2
dir=$1 out=$2 line=$3
zpty z zsh -f -i
zpty -w z "PS1='Z''P> '; fpath=(${(q)dir} \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w z 'compadd() { builtin compadd "$@"; local a; for a; do
	[[ $a == [a-z_]## && ${(Pt)a} == array* ]] && print -rl -- ${(P)a}; print -r -- $a
	done >>'"${(q)out}"'; }'
# The quotes keep the echoed commands from matching what is waited for.
# The line is typed only once the prompt after READY shows, that is once
# the line editor has taken the terminal: typed before, zsh may drop it.
zpty -w z "print -r -- RE''ADY"
zpty -r -m z junk '*READY*ZP> *'
zpty -w -n z "$line"$'\t'
zpty -w z $'\C-u'"print -r -- DO''NE"
zpty -r -m z junk '*DONE*'
zpty -d z
