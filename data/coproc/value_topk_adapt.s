; value_topk_adapt.s — value_topk_ring.s with the choice between a tally
; and a slot made per load, from what the load's tally has shown since
; the last harvest (ours, an option; docs/coproc.md, "value_topk_adapt";
; branch adapt22).
;
; value_topk_ring.s counts a record of a load without a slot in the
; load's tally (a spill-ring entry: pc, total, the first value's key and
; count) and tries one record in 4 for a slot. That fixed bzip2-compress,
; whose last phase has about 1,170 lukewarm loads, but cost busybox-bzip2
; 1.3 points: there the loss is one hot load (busybox's libbz2,
; sub_5193b8+0x2b0, 9.7% of the executions, 0.5 -> 2.6 points) that stays
; a tally, and that spreading (`.param spread 64`) then tags unevenly
; (docs/coproc-history.md, "What was tried on branch adapt22").
; Here the microcode reads the tally's total, which it keeps anyway: a
; load that has given 16 records (c13) since the last harvest is hot and
; tries for a slot with every record, the others one in 4 as before; a
; record whose try fails (the slots have seen more) is counted in the
; tally instead of being lost, so every record counts exactly once. The
; lukewarm loads of bzip2-compress's last phase give a few records each
; between harvests and stay tallies. No new resource: one more constant
; and 10 more microinstructions (151).
;
; The rest is value_topk_ring.s's; its notes (and value_topk.s's within
; them) explain the slots, ways, spill ring, tallies and parameters.
.name value_topk_adapt
.handler value
.classes load
.fields pc value
.dfe load load
.iwidth 16
.cwidth 8
.base b0 640           ; the slot's pc and each way's key, by CAM entry (for the spill)
.base b1 0             ; slot totals and way counts, by CAM entry
.base b2 2048          ; the spill ring: 512 entries of pc, total, top key, its count
.base b3 1280          ; what each way inherited, by CAM entry
.const c1 48           ; failed replacements before an interrupt
.const c2 512          ; replacements before thrashing is declared (4 x slots)
.const c3 127          ; slots - 1
.const c4 255          ; random numbers 0..255
.const c5 128          ; slots: from one way's CAM entry to the next
.const c6 1            ; a value not in the full ways takes one in 2 times (branch evict; was 1 in 8)
.const c7 2048         ; spill ring words (512 entries of 4)
.const c8 512          ; 4 x slots: from a slot's CAM entry to its way 3
.const c9 256          ; 2 x slots: ... to its way 1
.const c10 2           ; an evicted way with this many own hits or more is spilled
.const c11 0x300000    ; a tally's record tries for a slot one time in 4 (bits 20-21 of a draw)
.const c13 16          ; a tally of this many records (since the last harvest): a slot tried every record
.const c12 4096        ; the tallies' pointers: data[4096 + hash(pc)] (b1 is 0)
.param slots 128       ; pc entries 0..127
.param ways 4          ; (load, value) entries per slot
.param key_shift 40    ; way key = value xor pc << 40 (the handler undoes it)
.param cam_entries 640 ; 128 x (1 + 4)
.param data_words 8192 ; 4096 more: the tallies' pointers (data[4096 + hash(pc)])
.param profile_entries 16384
.param buffer_entries 128 ; sample buffer records: holds retirement bursts (branch lvp8)
.param spill_entries 512 ; the handler reads the spill ring (b2, v7 words written)
.param inherited_permille 1000 ; the handler adds each count less what it inherited
.param confident 32
.param hi_permille 900
.param lo_permille 100
.param enough 512
.param max_width 4       ; at most 16 PC-filter partitions (value.s: 64; docs/coproc.md, branch lvp6)
.param partition_interrupts 4
.param low_yield 1024
.param slice_div 8
.param min_slice 5000
.param slice_ticks 1
.param min_visits 3
.param hold 128
.param resample_every 250000   ; unmask every masked load every 250k cycles from the start (ours; branch resample)
.param resample_backoff 7      ; a load whose re-check agreed twice in a row sits out 1, 3, 7 rounds (ours)
.param stable_permille 20
.param stable_sigmas 20
.param stable_agreements 2
.param skip_weight 1          ; a re-check that earns skipped rounds counts for them too (ours; branch skipw)
.param ring_full_thrashes 1   ; a ring full of tallies: the slots thrash (visits, holds; no more partitions)
.param harvest_ring_alone 1   ; ... and its interrupt empties the ring alone
.param spread 64              ; a load giving more than 64 samples a timer period is thinned

.include "lib/topk_adapt_code.s"         ; the microcode, shared with value_topk_even.s / value_topk_adapt.s
