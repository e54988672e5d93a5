; value_topk.s — load-value profiling with several values counted per load
; (ours, beyond the paper: docs/coproc.md, "value_topk").
;
; value.s counts hits for one active value per slot, so a load's top value
; is counted only while it happens to be the active one. Here each of the
; 128 slots keeps 4 values at once, in the CAM: CAM entry s holds slot s's
; load pc, and its 4 "ways" are CAM entries s + 128, s + 256, s + 384,
; s + 512, keyed by (value xor pc << 40) so that one associative search
; finds the (load, value) pair. The counts are a space-saving summary:
;
;   way hit   its count + 1
;   way miss  an empty way takes the value (ways fill in order, so way 3
;             tells whether one is empty; branch fill: before it, an empty
;             way was taken one time in 8 like a full one, and a slot's
;             top value lost its first hits in every residency of the
;             slot). With every way in use: one time in 2 (an LFSR draw),
;             the way with the smallest count takes the value and goes on
;             from that count + 1 (the count it inherited is kept at b3:
;             the handler subtracts it, so what reaches the profile is the
;             value's own hits). The victim's own hits, if 2 or more, go
;             to the spill ring first (branch evict): before, they were
;             lost, so a load with more frequent values than ways (muldiv:
;             eight of 12.5% each) lost its values' hits at every
;             eviction, and the draw was one time in 8 to evict less. The
;             other half only count in the total: a load whose values all
;             differ costs fewer microinstructions a record (longer
;             routines let fewer records in: the random tagger thins the
;             tagging while the buffer drops, docs/coproc.md)
;   total     every sample (b1 + s); it saturates first (the ways' counts
;             add up to at most it): interrupt (reason 3), the handler
;             harvests
;
; so a value's count grows from the first time it is taken, whichever
; other values come between. Informational replacement weighs the
; candidate slot's total 8 times as much as value.s does: a load without a
; slot takes it when a random 0..255 is at least 8 x its total, so a slot
; with 32 samples is kept until the next harvest and fewer of the records
; that reached the slots are thrown away with a replaced slot (branch
; lvp6). Slot replacement, thrash detection and the handler's masking,
; partitions and time slices are value.s's, but for
; at most 16 partitions instead of 64 (max_width 4): a load's samples then
; come from windows of a sixteenth of the run rather than a sixty-fourth,
; closer to the run as a whole (sqlite3, docs/coproc.md, branch lvp6).
;
; The spill ring (branch lvp7): before a slot is replaced, the victim's
; pc, its total, and its largest way's key and own count (less what the
; way inherited) are written to a ring at b2; the handler merges them into
; the profile at the next harvest like the slots' ways. An evicted way
; writes an entry of the same shape with a total of 0 (its slot's total
; reaches the profile with the slot), only while the ring has room for a
; slot's entry besides, so a slot's spill always fits. Without it a
; lukewarm load whose slot is replaced over and over reached the profile
; only as the one sample its slot held at a harvest (estimate 1.00, true
; invariance a few percent: bzip2-compress). 512 entries: a slot is
; replaced at most 512 times between harvests (thrashing interrupts), so
; the ring-full interrupt (reason 4) was a safeguard. Evicted ways can
; fill it: then they are not spilled (their hits are lost, as before
; branch evict) until a replaced slot's entry fills the ring and
; interrupts, or the next harvest empties it.
;
; Data array: b1 + entry = the slot's total (entries 0..127) or a way's
; count (128..639); b3 + entry = what a way inherited; b0 + entry = the
; slot's pc or the way's key (the CAM cannot be read by the microcode);
; b2 the spill ring, v7 the words written to it. The co-processor is
; built with at least `cam_entries` CAM entries and `data_words` words,
; and the handler's profile table with `profile_entries` (with the spill,
; sqlite3's 12,168 loads reach the profile), and its sample buffer with
; `buffer_entries` records (branch lvp8): loads retire in bursts, and with
; 32 records the buffer overflowed while the co-processor was mostly idle;
; the random tagger's governor then thinned every load, and lukewarm loads
; kept so few records that their largest value's share overstated their
; invariance (bzip2-compress).
.name value_topk
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
.param slots 128       ; pc entries 0..127
.param ways 4          ; (load, value) entries per slot
.param key_shift 40    ; way key = value xor pc << 40 (the handler undoes it)
.param cam_entries 640 ; 128 x (1 + 4)
.param data_words 4096
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

load:     lookup i0, pc          -> miss nomatch
          shl v1, pc, 40
          xor v1, v1, value                       ; the (load, value) key
          lookup i1, v1          -> miss newval
          .include "lib/topk_count_value.s"       ; i1: the value's way; count, newval ... take
nomatch:  .include "lib/topk_evict_slot.s"         ; no slot: try for the candidate slot i7
          .include "lib/topk_alloc_slot.s"
          .include "lib/topk_slot_taken.s"
