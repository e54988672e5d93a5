#!/bin/bash
# dcpi-tmux.sh IVX — the DCPI sampler pane in the real full-screen explorer,
# driven in tmux: started with a sampling option, the sampler pane (zoomed)
# shows the counters and fills as cycles pass; `catch sample` stops at a
# sample; `sampling off` turns it off and restarts the run at once.
NAME=dcpi-tmux SESSION=dcpi
. "$(dirname "$0")/tools/tmux-lib.sh"

echo "dcpi-tmux: the sampler pane on screen"
T new-session -d -s dcpi -x 120 -y 40 "env LANG=C.UTF-8 $IVX --period 2000 data/bin/workloads/crc -- 1; sleep 600"
wait_for '(ivx)' && ok "the explorer opens with sampling on" || bad "explorer did not open"
T send-keys -t dcpi 'zoom sampler' Enter
wait_for 'ctr0 cycles' && wait_for 'ctr1 imiss' && ok "the pane shows both counters" || bad "sampler pane"
T send-keys -t dcpi 'step 20000' Enter
wait_for 'cycle 20000' && ok "step 20000" || bad "step"
wait_for 'samples 10,' || wait_for 'samples 9,' || wait_for 'samples 11,'
T capture-pane -p -t dcpi | grep -qE 'samples (9|10|11), hit rate' && ok "about 20000/1937 samples taken" || bad "sample count"
T capture-pane -p -t dcpi | grep -qE '^table +.*[░▒▓█]' && ok "the heat strip shows used buckets" || bad "heat strip"
T send-keys -t dcpi 'zoom' Enter 'catch sample' Enter 'continue' Enter
wait_for 'Catchpoint 1 (sample)' && ok "catch sample stops at a sample" || bad "catch sample"
T send-keys -t dcpi 'sampling off' Enter 'zoom sampler' Enter
wait_for 'sampling is off' && wait_for 'Sampling off; restarted at cycle 0.' && ok "sampling off restarts the run without the sampler" ||
	bad "sampling off"
T send-keys -t dcpi 'zoom' Enter 'sampling on --period 2000' Enter 'zoom sampler' Enter
wait_for 'ctr0 cycles' && ok "sampling on restarts the run with the sampler, no restart typed" || bad "sampling on"
T send-keys -t dcpi 'quit' Enter
echo "dcpi-tmux: $((checks - fails)) passed, $fails failed"
[ "$fails" = 0 ]
