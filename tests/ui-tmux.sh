#!/bin/bash
# ui-tmux.sh — the real full-screen explorer, driven in tmux.
#
#   tests/ui-tmux.sh IVX
#
# Starts `ivx` in a detached tmux session (its own server socket, no user
# config, HOME in a temporary directory), types with send-keys and reads
# the screen with capture-pane: stepping, a catchpoint seen on screen,
# Tab completion, history (within a session and across sessions), Enter
# repeating a stepping command, resizing to 80x24, Ctrl-C interrupting a
# run, NO_COLOR and the ASCII fallback, and the terminal restored after
# quit, SIGTERM and a crash (stty modes and tmux's alternate-screen flag
# are checked from the shell that started ivx).
set -u
IVX=$1
cd "$(dirname "$0")/.." || exit 2
case $IVX in /*) ;; *) IVX=$(pwd)/$IVX ;; esac
command -v tmux > /dev/null || { echo "ui-tmux: tmux is required (make deps-test)"; exit 1; }

TMP=$(mktemp -d)
SOCK="ivx-ui-test-$$"
T() { tmux -L "$SOCK" -f /dev/null "$@"; }
cleanup() { T kill-server 2> /dev/null; rm -rf "$TMP"; }
trap cleanup EXIT
export HOME="$TMP/home"
mkdir -p "$HOME"

K3=data/bin/kernels/k3_long_dmiss
fails=0
checks=0
ok() { checks=$((checks + 1)); echo "  ok   $1"; }
bad() {
	checks=$((checks + 1)); fails=$((fails + 1)); echo "  FAIL $1"
	[ -n "${2:-}" ] && { echo "  --- screen ---"; T capture-pane -p -t "$2" | sed 's/^/  | /'; }
}

# start NAME W H ENV... -- ARGS: run ivx ARGS in a shell that records the
# exit status and the terminal modes after ivx ends (the modes first: a
# check that waits for the status then finds them written).
start() {
	local name=$1 w=$2 h=$3
	shift 3
	local envs=()
	while [ "$1" != "--" ]; do envs+=("$1"); shift; done
	shift
	rm -f "$TMP/$name.exit" "$TMP/$name.stty"
	T new-session -d -s "$name" -x "$w" -y "$h" \
		"env ${envs[*]} $IVX $*; s=\$?; stty -a > $TMP/$name.stty; echo \$s > $TMP/$name.exit; sleep 600"
}

# wait_for NAME TEXT [SECONDS]: until the screen shows TEXT.
wait_for() {
	local n=$((${3:-10} * 10))
	while [ $n -gt 0 ]; do
		T capture-pane -p -t "$1" | grep -qF -- "$2" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

wait_exit() {
	local n=100
	while [ $n -gt 0 ] && [ ! -s "$TMP/$1.exit" ]; do sleep 0.1; n=$((n - 1)); done
	[ -s "$TMP/$1.exit" ]
}

# The ivx process: the child of the pane's shell.
ivx_pid() {
	local sh pid
	sh=$(T display -p -t "$1" '#{pane_pid}')
	for pid in /proc/[0-9]*; do
		pid=${pid#/proc/}
		[ "$(awk '{print $4}' /proc/$pid/stat 2> /dev/null)" = "$sh" ] && { echo "$pid"; return; }
	done
}

# Canonical mode, echo and signals back on, and off the alternate screen.
terminal_restored() {
	local name=$1 mode
	for mode in icanon echo isig icrnl opost; do
		grep -qE "(^| )$mode( |\$)" "$TMP/$name.stty" || return 1
	done
	[ "$(T display -p -t "$name" '#{alternate_on}')" = 0 ]
}

cmdline() { T capture-pane -p -t "$1" | tail -n 1; }
# wait_cmdline SESSION TEXT: the bottom line becomes TEXT within 3 s
wait_cmdline() {
	for _ in $(seq 30); do
		[ "$(cmdline "$1")" = "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

echo "ui-tmux: stepping, catchpoints, completion, history, resize, quit"
start main 120 40 LANG=C.UTF-8 -- "$K3" -- miss 2
wait_for main '(ivx)' && wait_for main '─ ROB' && ok "the explorer opens with UTF-8 line drawing" || bad "explorer did not open" main
T send-keys -t main 'step' Enter
wait_for main 'cycle 1, 0 committed' && ok "step: cycle 1" || bad "step" main
T send-keys -t main 'cat' Tab
wait_cmdline main "(ivx) catch" && ok "Tab completes a command" || bad "command completion: '$(cmdline main)'" main
T send-keys -t main 'l2' Tab
wait_for main 'l2d  l2i' && ok "Tab lists event names" || bad "event completion list" main
T send-keys -t main 'd if sym == "lo' Tab
wait_cmdline main '(ivx) catch l2d if sym == "loop"' && ok "Tab completes a symbol in a condition" ||
	bad "symbol completion: '$(cmdline main)'" main
T send-keys -t main Enter
wait_for main 'Catchpoint 1: l2d begins if sym == "loop"' && ok "catch l2d" || bad "catch" main
T send-keys -t main 'set l2.lat' Tab
wait_cmdline main "(ivx) set l2.latency" && ok "Tab completes a config key" || bad "config key completion: '$(cmdline main)'" main
T send-keys -t main C-u 'coproc ' Tab
wait_for main 'load  off  set' && ok "Tab lists a command's subcommands" || bad "subcommand completion" main
T send-keys -t main C-u 'coproc load value_topk_i' Tab
wait_cmdline main "(ivx) coproc load value_topk_ipw" && ok "Tab completes a shipped program after coproc load" ||
	bad "coproc load completion: '$(cmdline main)'" main
T send-keys -t main C-u 'coproc set clo' Tab
wait_cmdline main "(ivx) coproc set clock_div=" && ok "Tab completes a coproc key, with its = and no space" ||
	bad "coproc set completion: '$(cmdline main)'" main
T send-keys -t main C-u 'coproc set policy=st' Tab
wait_cmdline main "(ivx) coproc set policy=stall" && ok "Tab completes a coproc key's value after its =" ||
	bad "coproc set policy= completion: '$(cmdline main)'" main
T send-keys -t main C-u 'info coproc ' Tab
wait_for main 'program  registers  slots' && ok "Tab lists info coproc's topics" || bad "info coproc completion" main
T send-keys -t main C-u 'set break-stage com' Tab
wait_for main 'commit  complete' && ok "Tab lists a setting's values" || bad "set value completion" main
T send-keys -t main C-u 'sampling on --events cycles,im' Tab
wait_cmdline main "(ivx) sampling on --events cycles,imiss" && ok "Tab completes an option's value in a comma list" ||
	bad "sampling --events completion: '$(cmdline main)'" main
T send-keys -t main C-u 'set core.mode in' Tab
wait_cmdline main "(ivx) set core.mode inorder" && ok "Tab completes a machine key's value" ||
	bad "set core.mode completion: '$(cmdline main)'" main
T send-keys -t main C-u 'catch l1d e' Tab
wait_cmdline main "(ivx) catch l1d end" && ok "Tab completes catch's end" || bad "catch end completion: '$(cmdline main)'" main
T send-keys -t main C-u 'continue' Enter
wait_for main 'Catchpoint 1 (l2d begins), cycle 15477' && ok "continue stops at the catchpoint and says why" ||
	bad "catchpoint hit" main
screen=$(T capture-pane -p -t main)
echo "$screen" | grep -q 'l2d  *\.\.\. 0x4007f0' && ok "the event is listed in the events pane" || bad "events pane" main
T capture-pane -e -p -t main | grep 'ldr x2, \[x1\]' | grep -q '45m' &&
	ok "the event's instruction is highlighted" || bad "highlight of the stop's instruction" main
T send-keys -t main Up
wait_cmdline main "(ivx) continue" && ok "Up recalls the last command" || bad "history Up: '$(cmdline main)'" main
T send-keys -t main C-u Enter
wait_for main 'Catchpoint 1 (l2d begins), cycle 15904' && ok "Enter on an empty line repeats continue" ||
	bad "Enter repeat" main
T send-keys -t main 'focus timeline' Enter F2
wait_for main 'Timeline up to cycle 15904, 2 cycles a column' 3 && ok "F2 zooms the focused timeline out" ||
	bad "F2 on the timeline" main
T send-keys -t main F2
wait_for main 'Timeline up to cycle 15904, 4 cycles a column' 3 && ok "F2 twice: 4 cycles a column, as the tutorial says" ||
	bad "F2 twice on the timeline" main
T send-keys -t main 'layout fmt' Enter
wait_for main '─ FMT per-branch' 3 && ok "layout fmt shows the FMT" || bad "layout fmt" main
T send-keys -t main F2
wait_for main '─ FMT shared FMT' 3 && ok "the focus follows to the layout's FMT: F2 toggles the sFMT view" ||
	bad "F2 on the FMT after layout fmt" main
T send-keys -t main 'layout timeline' Enter PPage
wait_for main '─ Timeline up to cycle' 3 && T capture-pane -p -t main | grep -q '─ Timeline.*\[scrolled\]' &&
	ok "after layout timeline, PgUp scrolls the timeline" || bad "PgUp after layout timeline" main
T send-keys -t main 'layout default' Enter
T resize-window -t main -x 80 -y 24
# the redraw at the new size can lag on a loaded machine: poll up to 5 s
fits_80x24() {
	screen=$(T capture-pane -p -t main)
	width=$(echo "$screen" | LC_ALL=C.UTF-8 wc -L)
	rows=$(echo "$screen" | wc -l)
	[ "$width" -le 80 ] && [ "$rows" -le 24 ] && echo "$screen" | grep -q '─ Timeline' &&
		echo "$screen" | grep -q '─ Console' && [ "$(cmdline main)" = "(ivx)" ]
}
n=50
until fits_80x24 || [ $n -le 0 ]; do sleep 0.1; n=$((n - 1)); done
if fits_80x24; then
	ok "resized to 80x24: ROB, timeline, console and prompt fit"
else
	bad "resize to 80x24" main
fi
T send-keys -t main 'quit' Enter
wait_exit main && [ "$(cat "$TMP/main.exit")" = 0 ] && ok "quit exits with status 0" || bad "quit" main
terminal_restored main && ok "terminal restored after quit" || bad "terminal after quit: $(cat "$TMP/main.stty" 2>&1 | head -3)" main
grep -q 'catch\\040l2d' "$HOME/.ivx_history" && ok "history saved in ~/.ivx_history" || bad "history file"

echo "ui-tmux: history across sessions, Ctrl-C during continue"
start again 100 30 LANG=C.UTF-8 -- ""
wait_for again '(ivx)' || bad "second session did not open" again
T send-keys -t again Up
wait_cmdline again "(ivx) quit" && ok "history from the previous session" || bad "history across sessions: '$(cmdline again)'" again
T send-keys -t again Up
wait_cmdline again "(ivx) layout default" && ok "older history entries" || bad "history Up Up: '$(cmdline again)'" again
T send-keys -t again C-u 'continue' Enter
wait_for again 'running... cycle' 10 && ok "continue shows progress" || bad "no progress line" again
T resize-window -t again -x 110 -y 32
sleep 0.5
screen=$(T capture-pane -p -t again)
# (grown: the old layout would leave the new columns blank until the stop)
if [ "$(echo "$screen" | head -n 1 | LC_ALL=C.UTF-8 wc -L)" = 110 ] &&
	echo "$screen" | tail -n 1 | grep -q 'running... cycle'; then
	ok "a resize during continue redraws the screen at once"
else
	bad "resize during continue" again
fi
T resize-window -t again -x 100 -y 30
T send-keys -t again C-c
wait_for again 'Interrupted.' && ok "Ctrl-C interrupts continue and returns to the prompt" || bad "Ctrl-C" again
T send-keys -t again 'step' Enter
sleep 0.5
T capture-pane -p -t again | grep -q '^(ivx) step' && ok "the prompt works after the interrupt" || bad "after Ctrl-C" again
T send-keys -t again 'time -n 1000000 step' Enter
sleep 1
if cmdline again | grep -q '^running... cycle'; then
	ok "time -n shows progress, not the prompt, between its redraws"
else
	bad "time -n bottom line: '$(cmdline again)'" again
fi
T send-keys -t again C-c
# (the console wraps the report across its full width: read it joined)
found=no
for _ in $(seq 30); do
	T capture-pane -p -t again | tr -d '\n' | grep -q 'interrupted after [0-9]* of 1000000 runs' &&
		found=yes && break
	sleep 0.1
done
[ $found = yes ] && [ "$(cmdline again)" = "(ivx)" ] &&
	ok "Ctrl-C ends time -n; the prompt is back" || bad "Ctrl-C during time -n" again

# Found by fuzzing: Enter repeated a step once only; a long line edited on a
# tiny terminal crashed libedit; a scrolled-back console hid new output.
T send-keys -t again 'step 7' Enter
sleep 0.5
first=$(T capture-pane -p -t again | grep -o '^cycle [0-9]*' | tail -n 1 | cut -d' ' -f2)
T send-keys -t again Enter
sleep 0.3
T send-keys -t again Enter
wait_for again "cycle $((first + 14))," 3 && ok "Enter repeats a step again and again" || bad "Enter repeat: from cycle $first" again
T resize-window -t again -x 10 -y 3
sleep 0.3
T send-keys -t again -l 'abcdefghijklmnopqabcdefghijklmnopq'
T send-keys -t again C-a C-r End
T send-keys -t again -l 'abcdefg'
sleep 0.5
T resize-window -t again -x 100 -y 30
sleep 0.3
T send-keys -t again C-g C-u 'print 6*7' Enter
wait_for again '= 42 (0x2a)' 3 && ok "a long line edited on a 10x3 terminal" || bad "after a long line at 10x3" again
T send-keys -t again -l 'echo 日本語 ok'
wait_cmdline again "(ivx) echo 日本語 ok" && ok "double-width characters on the command line" ||
	bad "wide characters: '$(cmdline again)'" again
T send-keys -t again C-u
T send-keys -t again -l "echo $(printf '日%.0s' $(seq 70))END"
T send-keys -t again Enter
wait_for again '日日日' 3 && wait_cmdline again "(ivx)" && T capture-pane -p -t again | grep -q '^日日日' &&
	ok "a console line of wide characters stays within its pane" || bad "wide console line" again
T send-keys -t again 'focus console' Enter PPage PPage
sleep 0.3
T send-keys -t again 'print 424242' Enter
wait_for again '= 424242 (0x67932)' 3 && ok "a command's output shows in a scrolled-back console" || bad "console scroll" again
T send-keys -t again 'help' Enter
wait_for again 'Console more below: Shift-PgDn' 3 && T capture-pane -p -t again | grep -q '^Commands (unique prefixes' &&
	ok "help longer than the console shows from its top, and the title says there is more" ||
	bad "the console's pager" again
rows_before=$(T capture-pane -p -t again | grep -n '─ Console' | cut -d: -f1)
T send-keys -t again F4
sleep 0.5
rows_after=$(T capture-pane -p -t again | grep -n '─ Console' | cut -d: -f1)
[ -n "$rows_after" ] && [ "$rows_after" -lt "$rows_before" ] && ok "F4 makes the console taller" ||
	bad "F4: console title at row $rows_before, then $rows_after" again
for _ in $(seq 40); do T send-keys -t again C-x NPage; done   # (help grows with each instrument)
sleep 0.5
T capture-pane -p -t again | grep -q '─ Console ─' && ok "Ctrl-X PgDn reads on to the console's newest line" ||
	bad "Ctrl-X PgDn" again
T send-keys -t again F4
pid=$(ivx_pid again)
[ -n "$pid" ] && kill -TERM "$pid"
wait_exit again && [ "$(cat "$TMP/again.exit")" = 143 ] && ok "SIGTERM ends ivx (status 143)" || bad "SIGTERM" again
terminal_restored again && ok "terminal restored after SIGTERM" || bad "terminal after SIGTERM" again

echo "ui-tmux: two explorers at once keep each other's history"
start h1 100 30 LANG=C.UTF-8 -- ""
start h2 100 30 LANG=C.UTF-8 -- ""
wait_for h1 '(ivx)' && wait_for h2 '(ivx)' || bad "history sessions did not open" h1
T send-keys -t h1 'echo from-the-first' Enter
wait_for h1 'from-the-first' 3
T send-keys -t h2 'echo from-the-second' Enter
wait_for h2 'from-the-second' 3
T send-keys -t h1 'echo first-again' Enter
wait_for h1 'first-again' 3
T send-keys -t h1 'quit' Enter
T send-keys -t h2 'quit' Enter
wait_exit h1
wait_exit h2
grep -q 'from-the-first' "$HOME/.ivx_history" && grep -q 'from-the-second' "$HOME/.ivx_history" &&
	grep -q 'first-again' "$HOME/.ivx_history" && ok "both sessions' lines are in ~/.ivx_history" ||
	bad "history of two sessions: $(tail -n 4 "$HOME/.ivx_history" | tr '\n' ' ')"

echo "ui-tmux: a catchpoint whose condition never holds"
start chase 120 40 LANG=C.UTF-8 -- data/bin/workloads/ptrchase
wait_for chase '(ivx)' || bad "ptrchase session did not open" chase
T send-keys -t chase 'catch l2d if latency > 300' Enter 'continue' Enter
wait_for chase 'catchpoint 1: ' 10 && T capture-pane -p -t chase | tail -n 1 | grep -q 'l2d tested, longest 291 cycles' &&
	ok "the progress line shows what a catchpoint that does not hit has tested" ||
	bad "progress line of a conditional catchpoint" chase
T send-keys -t chase C-c
wait_for chase 'held for none of the' 10 && ok "after Ctrl-C the catchpoint says its condition held for none" ||
	bad "catchpoint summary after Ctrl-C" chase
T send-keys -t chase 'quit' Enter
wait_exit chase

echo "ui-tmux: a page of commands typed during a run is kept"
start ahead 120 40 LANG=C.UTF-8 -- data/bin/workloads/ptrchase -- 4000
wait_for ahead '(ivx)' || bad "ptrchase session did not open" ahead
T send-keys -t ahead 'continue' Enter
wait_for ahead 'running... cycle' 10 || bad "continue did not start" ahead
for i in $(seq 10 39); do T send-keys -t ahead "echo line-$i" Enter; done   # 420 keys
sleep 1
T send-keys -t ahead C-c
if wait_for ahead 'line-39' 10 && T capture-pane -p -t ahead | grep -q '^line-38' &&
	! T capture-pane -p -t ahead | grep -q 'dropped'; then
	ok "all 30 commands typed during continue ran after it"
else
	bad "commands typed ahead were lost" ahead
fi
T send-keys -t ahead 'quit' Enter
wait_exit ahead

echo "ui-tmux: Ctrl-C ends a sourced script, not only its running command"
printf 'continue\necho after-first\ncontinue\necho after-second\n' > "$TMP/two-runs.ivx"
start src 120 40 LANG=C.UTF-8 -- data/bin/workloads/ptrchase -- 4000
wait_for src '(ivx)' || bad "ptrchase session did not open" src
T send-keys -t src "source $TMP/two-runs.ivx" Enter
sleep 1
T send-keys -t src C-c
wait_for src 'interrupted: the rest of the script is skipped' 10 &&
	! T capture-pane -p -t src | grep -q 'after-first' && ok "one Ctrl-C stops the whole sourced script" ||
	bad "Ctrl-C during a sourced script" src
T send-keys -t src 'quit' Enter
wait_exit src

echo "ui-tmux: a restart that fails leaves a session that still answers"
echo text > "$TMP/stdin.txt"
start norun 120 40 LANG=C.UTF-8 -- --stdin "$TMP/stdin.txt" "$K3" -- miss 2
wait_for norun '(ivx)' || bad "norun session did not open" norun
rm -f "$TMP/stdin.txt"
T send-keys -t norun 'restart' Enter
wait_for norun 'cannot open' 5 || bad "restart without the --stdin file" norun
T send-keys -t norun 'info program' Enter 'info events' Enter
wait_for norun 'info: there is no run: the last restart failed' 5 && [ ! -s "$TMP/norun.exit" ] &&
	ok "after a failed restart, commands that read the run say there is none (no crash)" ||
	bad "commands after a failed restart" norun
echo text > "$TMP/stdin.txt"
T send-keys -t norun 'restart' Enter 'info program' Enter
wait_for norun 'Stopped at cycle 0' 5 && ok "restart works again once the cause is gone" ||
	bad "restart after fixing the cause" norun
{ sed -n '/^\.name/,/^br:/p' data/coproc/edge.s | sed '$d'; echo 'br: nop'
  i=0; while [ $i -lt 300 ]; do echo '  nop'; i=$((i + 1)); done; echo '  nop -> DONE'; } > "$TMP/long.s"
T send-keys -t norun 'coproc load value' Enter
wait_for norun 'value loaded from' 5
T send-keys -t norun "coproc load $TMP/long.s" Enter
wait_for norun 'program edge has 302 microinstructions' 5 && T send-keys -t norun 'info coproc' Enter &&
	wait_for norun 'program value (data/coproc/value.s)' 5 &&
	ok "a co-processor program too long for the microcode is refused and the loaded one stays" ||
	bad "coproc load of a too-long program" norun
T send-keys -t norun 'coproc set cam=64' Enter 'info program' Enter
wait_for norun 'Stopped at cycle 0' 5 && [ ! -s "$TMP/norun.exit" ] &&
	ok "after a refused coproc setting the run is there" || bad "info program after a refused coproc set" norun
T send-keys -t norun 'quit' Enter
wait_exit norun

echo "ui-tmux: NO_COLOR, ASCII fallback, crash"
start mono 100 30 LANG=C NO_COLOR=1 -- "$K3" -- miss 2
wait_for mono '(ivx)' || bad "mono session did not open" mono
T send-keys -t mono 'step 20' Enter
wait_for mono 'cycle 20'
T capture-pane -p -t mono | grep -q '^- ROB' && ok "ASCII line drawing without a UTF-8 locale" || bad "ASCII fallback" mono
T capture-pane -e -p -t mono | grep -qE $'\e\\[[0-9;]*(3[0-7]|4[0-7])m' && bad "NO_COLOR: colours used" mono ||
	ok "NO_COLOR: no colours"
pid=$(ivx_pid mono)
[ -n "$pid" ] && kill -SEGV "$pid"
wait_exit mono && [ "$(cat "$TMP/mono.exit")" -ge 128 ] && ok "a crash ends ivx with the signal's status" || bad "crash" mono
terminal_restored mono && ok "terminal restored after a crash" || bad "terminal after crash" mono

start color 100 30 LANG=C.UTF-8 TERM=screen-256color -- "$K3" -- miss 2
wait_for color '(ivx)' || bad "colour session did not open" color
T capture-pane -e -p -t color | grep -qE $'\e\\[[0-9;]*(3[0-7]|4[0-7])m' && ok "colours on a colour terminal" ||
	bad "no colours" color
# export to standard output from the full-screen explorer: refused (the
# SVG was drawn over the panes), the screen stays
T send-keys -t color 'export svg /dev/stdout' Enter
wait_for color "export: /dev/stdout is the explorer's terminal" 5 && ! T capture-pane -p -t color | grep -q '<svg' &&
	ok "export to the explorer's own terminal is refused" || bad "export svg /dev/stdout on the screen" color
T send-keys -t color 'quit' Enter
wait_exit color

echo "ui-tmux: $((checks - fails)) of $checks checks passed"
[ $fails = 0 ]
