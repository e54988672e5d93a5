; value_topk_young.s — value_topk_first.s with the young run's records
; never dropped (ours, an option; docs/coproc.md, "A young run stalls";
; branch first).
;
; On a run of a few hundred thousand cycles a load runs a handful of
; times, and the records the 128-record buffer drops in bursts are
; samples such a load never gets again (busybox `paste -s -d ,
; bench.sh`: 9,123 load executions of 1,206 loads in 208k cycles, 7.18
; points with value_topk_first.s, the loads run 17 to 64 times keeping 8
; to 15 samples). `.param young_stall 500000` (the only difference from
; value_topk_first.s): before core cycle 500,000 a full buffer stalls
; retirement instead of dropping the record, so nothing is dropped and
; the governor keeps the tagger at full rate; after it, the drop policy
; and the governor as before. A run that ends young is profiled nearly
; whole, at the cost of the stalls; a long run pays them once.
; The microcode is value_topk_adapt.s's, to the instruction; its notes
; (and value_topk_ring.s's and value_topk.s's within them) explain the
; slots, ways, spill ring, tallies and parameters.
.name value_topk_young
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
.param even 1                 ; ... at a rate of its own, weighted by its inverse, never masked or held (branch even22)
.param first 2                ; a bucket's first 2 records tagged at once, buffer at most half full (branch first)
.param young_stall 500000       ; before core cycle 500,000 a full buffer stalls retirement (branch first)

.include "lib/topk_adapt_code.s"         ; the microcode, shared with value_topk_even.s / value_topk_adapt.s
