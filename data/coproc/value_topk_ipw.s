; value_topk_ipw.s — value_topk.s with each record counted by the inverse
; of the rate it was tagged at (ours; docs/coproc.md, branch lvp9).
;
; The random tagger's governor changes the rate over the run (1 in 2^k,
; k moved every 256 tagged retirements by the buffer's drops), so with
; every record counted once, stretches tagged at a high rate weigh more
; than stretches tagged at a low one, and a load's counts are not in
; proportion to its executions' values (lvp8 measured the bias: 1.71
; points of bzip2-compress's underestimation). Here the tag keeps the
; tagger's shift k, the record carries weight = 2^k (the field `weight`),
; and the microcode adds the weight instead of 1 to the value's way and
; to a second, weighted, total per slot (b3 + slot, a word value_topk.s
; leaves unused): a Horvitz-Thompson estimate of the load's executions
; per value. Everything that decides *when* things happen stays in
; samples: the slot's total at b1 + slot (it saturates at 255 and
; interrupts, as before), the informational replacement, and the
; handler's masking and hold rules (the profile's `total`). Only the
; estimate (a value's weighted count over the weighted total, the
; profile's `wtotal`) and the space-saving choice of the way to take (the
; smallest weighted count) use weights. Weighted counts saturate at
; 2^32 - 1 (`.awidth 32`: `adds` saturates at its own width, `inc` at
; `.cwidth`). The spill ring's entries have a fifth word, the slot's
; weighted total (and its top way's count is weighted); `.param weighted 1`
; tells the handler both.
;
; The rest is value_topk.s's, and so are its notes (slots and ways, the
; informational replacement, the spill ring, the data array's layout), but
; for a new value in a full slot's ways, as value_topk.s was before its
; branches fill and evict: one time in 8 (an LFSR draw) the way with the
; smallest weighted count takes it, an empty way having count 0 (no way
; is taken in order, no evicted way is spilled); the other 7 in 8 only
; count in the total, so a load whose values all differ takes the
; shortest path most of the time (longer routines let fewer records in).
.name value_topk_ipw
.handler value
.classes load
.fields pc value
.dfe load load
.iwidth 16
.cwidth 8
.awidth 32             ; weighted counts (adds): up to 255 samples of weight 2^10 and more
.base b0 640           ; the slot's pc and each way's key, by CAM entry (for the spill)
.base b1 0             ; slot totals and way counts, by CAM entry
.base b2 2048          ; the spill ring: 512 entries of pc, total, top key, its count
.base b3 1280          ; what each way inherited, by CAM entry; the slot's weighted total (0..127)
.const c1 48           ; failed replacements before an interrupt
.const c2 512          ; replacements before thrashing is declared (4 x slots)
.const c3 127          ; slots - 1
.const c4 255          ; random numbers 0..255
.const c5 128          ; slots: from one way's CAM entry to the next
.const c6 7            ; a value not in the ways takes one in 8 times
.const c7 2560         ; spill ring words (512 entries of 5)
.param slots 128       ; pc entries 0..127
.param ways 4          ; (load, value) entries per slot
.param key_shift 40    ; way key = value xor pc << 40 (the handler undoes it)
.param cam_entries 640 ; 128 x (1 + 4)
.param data_words 8192
.param weighted 1      ; counts and spill entries are weighted (2^k a record)
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
.param resample_thrashed 1000000

load:     lookup i0, pc          -> miss nomatch
          shl v1, pc, 40
          xor v1, v1, value                       ; the (load, value) key
          lookup i1, v1          -> miss newval
          adds [b1 + i1], weight                  ; the value's weighted count
count:    adds [b3 + i0], weight                  ; the slot's weighted total
          inc [b1 + i0]          -> nsat DONE     ; the slot's total (samples)
          mov i4, 3              -> INTERRUPT     ; a total counter is full
newval:   .include "lib/topk_smallest_way.s"      ; v2, i2: ways 0-2's smallest; v3, i3: way 3
          cmp v3, v2             -> ge take
          mov v2, v3
          mov i2, i3
take:     camw i2, v1                             ; the smallest count's way
          st [b0 + i2], v1                        ; its key, for the spill
          st [b3 + i2], v2                        ; ... inherited
          adds [b1 + i2], weight -> count         ; goes on from it + weight
nomatch:  .include "lib/topk_evict_slot.s"         ; no slot: try for the candidate slot i7
          ld v3, [b3 + i7]                        ; and the slot's weighted total
          st [b2 + v7], v3
          add v7, v7, 1
alloc:    camw i7, pc
          st [b0 + i7], pc
          st [b1 + i7], 1                         ; this sample
          st [b3 + i7], weight                    ; ... weighted
          add i2, i7, c5                          ; way 0 takes its value
          shl v1, pc, 40
          xor v1, v1, value
          camw i2, v1
          st [b0 + i2], v1
          st [b1 + i2], weight
          st [b3 + i2], 0
          .include "lib/topk_slot_taken.s"
