# tmux-lib.sh — the scaffolding of the instrument tests that drive the real
# explorer in tmux (dcpi-tmux.sh, annotate-tmux.sh). Source it after
# setting NAME (the test's name, for messages and the tmux socket) and
# SESSION (the tmux session the checks read); $1 is the ivx binary.
# Gives IVX (absolute), TMP (removed at exit, HOME below it), T (tmux on
# a private server), ok, bad (prints the screen) and wait_for TEXT [SECONDS].
set -u
IVX=$1
cd "$(dirname "$0")/.." || exit 2
case $IVX in /*) ;; *) IVX=$(pwd)/$IVX ;; esac
command -v tmux > /dev/null || { echo "$NAME: tmux is required (make deps-test)"; exit 1; }
TMP=$(mktemp -d)
SOCK="ivx-$NAME-$$"
T() { tmux -L "$SOCK" -f /dev/null "$@"; }
cleanup() { T kill-server 2> /dev/null; rm -rf "$TMP"; }
trap cleanup EXIT
export HOME="$TMP/home"
mkdir -p "$HOME"
fails=0 checks=0
ok() { checks=$((checks + 1)); echo "  ok   $1"; }
bad() {
	checks=$((checks + 1)); fails=$((fails + 1)); echo "  FAIL $1"
	echo "  --- screen ---"; T capture-pane -p -t "$SESSION" | sed 's/^/  | /'
}
wait_for() {
	local n=$((${2:-10} * 10))
	while [ $n -gt 0 ]; do
		T capture-pane -p -t "$SESSION" | grep -qF -- "$1" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}
