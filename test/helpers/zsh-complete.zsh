# zsh -f zsh-complete.zsh FPATH_DIR WORDS…: what zsh completion offers for the command line WORDS
# (the last word may be partial), one per line. Drives an interactive zsh through zsh/zpty, with
# compadd wrapped to print each match.
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "fpath=(${(q)1} \$fpath); PROMPT=; RPROMPT="
zpty -w z 'autoload -U compinit && compinit -u -D'
zpty -w z 'compadd () {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
  typeset -a __hits
  builtin compadd -A __hits "$@"
  (( $#__hits )) || return 1
  for h in $__hits; do print -r -- "<hit>$h"; done
  builtin compadd "$@"
}'
# TAB completes, then says so: keys typed while a completion still runs would cut it short.
zpty -w z 'complete-and-mark () { zle complete-word; print -r -- "<com""pleted>" }; zle -N complete-and-mark'
zpty -w z "bindkey '^I' complete-and-mark; zstyle ':completion:*' list-prompt ''; zstyle ':completion:*' menu no"
zpty -w z 'print -r -- "<ready>"'
local line
while zpty -r z line; do [[ $line == *'<ready>'* ]] && [[ $line != *print* ]] && break; done
shift
zpty -w -n z "${(j: :)@}"$'\t'
while zpty -r z line; do
  [[ $line == *'<hit>'* ]] && print -r -- "${${line##*<hit>}%%$'\r'*}"
  [[ $line == *'<completed>'* ]] && break
done
zpty -w z $'\C-u''print -r -- "<done>"'
while zpty -r z line; do
  [[ $line == *'<done>'* && $line != *print* ]] && break
  [[ $line == *'<hit>'* ]] && print -r -- "${${line##*<hit>}%%$'\r'*}"
done
zpty -d z
