; edge.s — edge profiling: how often each conditional branch went each way.
;
; Slot i = CAM entry i (the branch's pc), b0+i its taken count, b1+i its
; not-taken count (32-bit counters). Slots are handed out in order (i1);
; when the last one is taken the handler harvests all of them into the
; profile and starts over. With the stall policy no sample is lost, so the
; profile is exact (tests/coproc-cli.sh checks it).
.name edge
.handler edge
.classes cond-branch
.fields pc taken
.dfe cond-branch br
.iwidth 16
.cwidth 32
.base b0 0             ; taken
.base b1 64            ; not taken
.const c0 64           ; slots
.param slots 64

br:       lookup i0, pc          -> miss new
count:    cmp taken, 0           -> z nt
          inc [b0 + i0]          -> nsat DONE
          mov i4, 3              -> INTERRUPT
nt:       inc [b1 + i0]          -> nsat DONE
          mov i4, 3              -> INTERRUPT
new:      camw i1, pc
          mov i0, i1
          add i1, i1, 1
          cmp i1, c0             -> lt count
          cmp taken, 0           -> z lastnt      ; the last free slot:
          inc [b0 + i0]          -> INTERRUPT     ; count, then harvest
lastnt:   inc [b1 + i0]          -> INTERRUPT
