#!/bin/bash
# annotate-tmux.sh IVX — the annotate pane in the real full-screen
# explorer, driven in tmux: the dcpicalc lab's run (in-order ptrchase,
# sampling from the start), the pane zoomed shows main's annotation around
# the pc; Ctrl-X h goes to the hottest instruction (the store 4001a4),
# Ctrl-X Tab to the next hot one (4001ac), Ctrl-X . back to the pc.
NAME=annotate-tmux SESSION=ann
. "$(dirname "$0")/tools/tmux-lib.sh"

echo "annotate-tmux: the annotate pane on screen"
T new-session -d -s ann -x 140 -y 40 "env LANG=C.UTF-8 $IVX --config data/configs/inorder.ini --fastforward 3000000 --period 512 data/bin/workloads/ptrchase; sleep 600"
wait_for '(ivx)' && ok "the explorer opens with sampling on" || bad "explorer did not open"
T send-keys -t ann 'zoom annotate' Enter
wait_for 'no CYCLES samples yet' && ok "before the first sample the pane says so" || bad "pane before samples"
T send-keys -t ann 'break cycle 2000000' Enter 'continue' Enter
wait_for 'annotate main (4000f0-40027c' 20 && wait_for 'around the pc' && ok "the pane annotates main around the pc" ||
	bad "annotation of main"
T capture-pane -p -t ann | grep -qE '2625 +11256 .*4001a4:' && ok "the store has its 2625 samples" || bad "store line"
T send-keys -t ann C-x h
wait_for 'at 4001a4 (. follows the pc)' && ok "Ctrl-X h: the hottest instruction" || bad "hottest key"
T send-keys -t ann C-x Tab
wait_for 'at 4001ac (. follows the pc)' && ok "Ctrl-X Tab: the next hot one" || bad "next hot key"
T send-keys -t ann C-x .
wait_for 'around the pc (h hottest' && ok "Ctrl-X .: back to the pc" || bad "back to the pc"
T send-keys -t ann 'quit' Enter
echo "annotate-tmux: $((checks - fails)) passed, $fails failed"
[ "$fails" = 0 ]
