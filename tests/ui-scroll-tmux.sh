#!/bin/bash
# ui-scroll-tmux.sh IVX — the instruments' panes scroll with PgUp/PgDn in
# the real full-screen explorer, driven in tmux at 120x24: the
# co-processor's slots that do not fit (PgDn shows later slots, the
# header stays, PgUp goes back to the first), and the rows a short DCPI
# sampler or stratified sampler pane cuts (PgDn shows the last row).
NAME=ui-scroll-tmux SESSION=scroll
. "$(dirname "$0")/tools/tmux-lib.sh"

screen() { T capture-pane -p -t "$SESSION"; }
# slot numbers on the screen: the co-processor pane's slot rows
slots() { screen | sed -n 's/^ *\([0-9][0-9]*\)  *0x[0-9a-f]*  *[a-z_].*/\1/p'; }
key() { T send-keys -t "$SESSION" "$@"; sleep 0.3; }

echo "ui-scroll-tmux: PgUp/PgDn in the co-processor, sampler and strat panes"
T new-session -d -s scroll -x 120 -y 24 "env LANG=C.UTF-8 $IVX data/bin/workloads/crc -- 1; sleep 600"
wait_for '(ivx)' || bad "explorer did not open"
T send-keys -t scroll 'coproc load value' Enter 'step 39000' Enter 'layout coproc' Enter
wait_for 'cycle 39000' && wait_for 'shown, slots 0 to' && ok "the coproc pane has more slots in use than rows" ||
	bad "coproc pane before PgDn"
before=$(slots)
last_before=$(echo "$before" | tail -n 1)
key NPage
wait_for '[scrolled]' && ok "PgDn scrolls the coproc pane (its title says so)" || bad "coproc title after PgDn"
after=$(slots)
last_after=$(echo "$after" | tail -n 1)
[ -n "$last_after" ] && [ "$last_after" -gt "$last_before" ] &&
	ok "PgDn reveals later slots (slot $last_after, the last was $last_before)" || bad "coproc slots after PgDn"
# a page is at most the rows shown: no slot is passed over (at the end of
# the list the last page overlaps the one before)
first_after=$(echo "$after" | head -n 1)
[ -n "$first_after" ] && [ "$first_after" -le $((last_before + 1)) ] &&
	ok "PgDn passes over no slot (slot $first_after follows $last_before)" || bad "PgDn skipped slots: $first_after after $last_before"
screen | grep -q 'slot  *pc symbol' && screen | grep -q '^filters load' &&
	ok "the header and the columns' names stay" || bad "coproc header after PgDn"
key PPage
[ "$(slots)" = "$before" ] && ! screen | grep -qF '[scrolled]' && ok "PgUp goes back to the first slots" ||
	bad "coproc slots after PgUp"
# a short pane (a few slot rows, fewer than a third of the screen): a
# PgDn moved a third of the screen and passed over slots
T send-keys -t scroll 'set console-lines 15' Enter
sleep 0.5
short=$(slots)
key NPage
first_short=$(slots | head -n 1)
last_short=$(echo "$short" | tail -n 1)
[ "$(echo "$short" | wc -l)" -lt 8 ] && [ -n "$first_short" ] && [ "$first_short" -le $((last_short + 1)) ] &&
	[ "$first_short" -gt "$(echo "$short" | head -n 1)" ] &&
	ok "in a short pane PgDn passes over no slot ($first_short follows $last_short)" ||
	bad "short coproc pane: slots $(echo $short) then from $first_short"
key PPage

T send-keys -t scroll 'sampling on --period 2000' Enter 'restart' Enter 'step 20000' Enter
T send-keys -t scroll 'layout sampler' Enter 'set console-lines 17' Enter
wait_for 'ctr0 cycles' && ! screen | grep -q '^samples [0-9]*, hit rate' &&
	ok "a short sampler pane cuts its last rows" || bad "short sampler pane"
key NPage
wait_for 'samples 10, hit rate' && screen | grep -qF 'DCPI sampler' && screen | grep -qF '[scrolled]' &&
	ok "PgDn reveals the sampler's last row" || bad "sampler after PgDn"
key PPage
wait_for 'ctr0 cycles' && ! screen | grep -q '^samples [0-9]*, hit rate' && ok "PgUp goes back to its top" ||
	bad "sampler after PgUp"

T send-keys -t scroll 'strat H[P16]64+A4' Enter 'step 30000' Enter 'layout strat' Enter 'set console-lines 16' Enter
wait_for 'H[P16]64+A4, value' && ! screen | grep -q '^error ' && ok "a short strat pane cuts its last rows" ||
	bad "short strat pane"
key NPage
wait_for '[scrolled]' && screen | grep -q '^error ' && ok "PgDn reveals the strat pane's error row" ||
	bad "strat after PgDn"
key PPage
wait_for 'H[P16]64+A4, value' && ! screen | grep -q '^error ' && ok "PgUp goes back to its top" ||
	bad "strat after PgUp"

T send-keys -t scroll 'quit' Enter
echo "ui-scroll-tmux: $((checks - fails)) passed, $fails failed"
[ "$fails" = 0 ]
