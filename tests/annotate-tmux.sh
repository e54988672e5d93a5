#!/bin/bash
# annotate-tmux.sh IVX — the annotate pane in the real full-screen
# explorer, driven in tmux: the dcpicalc lab's run (in-order ptrchase,
# sampling from the start), the pane zoomed shows main's annotation around
# the pc with the true reasons beside the estimated stall letters; Ctrl-X h
# goes to the hottest instruction (the store 4001a4) and the line of the
# load it blames ends in "<- culprit of 4001a4"; Ctrl-X Tab to the next hot
# one (4001ac), Ctrl-X . back to the pc; Ctrl-X p switches Percent between
# the procedure's and all samples (title and header say which; here main
# has every sample, annotate-cli.sh checks the numbers); `layout annotate`
# shows the pane with the code and the sampler.
NAME=annotate-tmux SESSION=ann
. "$(dirname "$0")/tools/tmux-lib.sh"

echo "annotate-tmux: the annotate pane on screen"
T new-session -d -s ann -x 170 -y 40 "env LANG=C.UTF-8 $IVX --config data/configs/inorder.ini --fastforward 3000000 --period 512 data/bin/workloads/ptrchase; sleep 600"
wait_for '(ivx)' && ok "the explorer opens with sampling on" || bad "explorer did not open"
T send-keys -t ann 'zoom annotate' Enter
wait_for 'no CYCLES samples yet' && ok "before the first sample the pane says so" || bad "pane before samples"
T send-keys -t ann 'break cycle 2000000' Enter 'continue' Enter
wait_for 'annotate main (4000f0-40027c' 20 && wait_for 'around the pc' && ok "the pane annotates main around the pc" ||
	bad "annotation of main"
T capture-pane -p -t ann | grep -qE '2625 +11256 .*4001a4:' && ok "the store has its 2625 samples" || bad "store line"
# the truth beside the estimate: memory (d) and D-TLB (D) cycles per execution
T capture-pane -p -t ann | grep -qE 'dDw \+113\.7cy +d87\.9 D24\.6 +4001a4:' &&
	ok "True: the store's cycles per execution by true reason beside its stall letters" || bad "true reasons of the store"
T capture-pane -p -t ann | grep -qE 'a +m40\.0 +400194:' && ok "True: the divide's dependant waits on the long-latency unit" ||
	bad "true reason of msub"
T capture-pane -p -t ann | grep -q 'culprit of' && bad "a culprit mark while the cursor (the pc's ldr) has no arrow" ||
	ok "no culprit mark while the cursor line has no arrow"
T send-keys -t ann C-x h
wait_for 'at 4001a4 (. follows the pc)' && ok "Ctrl-X h: the hottest instruction" || bad "hottest key"
T capture-pane -p -t ann | grep -qE '4001a0: +ldr x6, \[x0, x5\].*<- culprit of 4001a4 \(the true one\)' &&
	T capture-pane -p -t ann | grep -qE '40017c: +ldr x2, \[x7\].*<- culprit of 4001a4$' &&
	ok "the store's culprits (the loads it names) are marked on their lines, the true one as such" || bad "culprit marks"
T capture-pane -p -t ann | grep -qE '4001a4:.*<- culprit' && bad "the cursor line marks itself" || ok "the cursor line does not mark itself"
T send-keys -t ann C-x Tab
wait_for 'at 4001ac (. follows the pc)' && ok "Ctrl-X Tab: the next hot one" || bad "next hot key"
T send-keys -t ann C-x .
wait_for 'around the pc (h hottest' && ok "Ctrl-X .: back to the pc" || bad "back to the pc"
wait_for '% of procedure' && ok "the title says Percent of the procedure" || bad "title before p"
T send-keys -t ann C-x p
wait_for '% of total' && wait_for 'Percent of all samples' && ok "Ctrl-X p: Percent of all samples (title and header)" ||
	bad "percent key"
T send-keys -t ann C-x p
wait_for "Percent of the procedure's samples" && ok "Ctrl-X p again: back to the procedure's" || bad "percent key back"
T send-keys -t ann 'layout annotate' Enter
wait_for 'DCPI sampler' && wait_for 'Annotate (dcpicalc)' && wait_for 'Code' &&
	ok "layout annotate: the annotation, the code and the sampler" || bad "layout annotate"
T send-keys -t ann 'quit' Enter
echo "annotate-tmux: $((checks - fails)) passed, $fails failed"
[ "$fails" = 0 ]
