; value.s — load-value profiling (Zilles & Sohi, HPCA 2001, section 5).
;
; Each of 128 slots watches one static load: CAM entry i holds its pc, and
; the data array holds its active value (b0+i), hits (b1+i) and misses
; (b3+i) -- the samples equal to / different from the active value since
; it was selected (its "region") -- and total (b2+i: every sample the slot
; saw). Byte counters (.cwidth 8), as in the paper.
;
;   new slot  the allocating sample counts as a hit of its value (a load
;             replaced after one or two samples still shows its value)
;   hit       hits+1, total+1
;   mismatch  misses+1, total+1; once the region has c6 misses and the
;             active value matched less than a ninth of it, the value is
;             re-selected: the sample's value becomes active, hits and
;             misses restart at 0. A random sample is likelier to carry a
;             frequent value, so the slot settles on the top value.
;   total saturates: interrupt (reason 3) so the handler harvests it
;   no slot:  informational replacement -- the candidate slot (i7, round
;             robin) is replaced when a random number 0..255 is at least
;             its total (a slot that has seen many samples holds much
;             information); a replacement that fails counts in i6, and c1
;             failures interrupt (reason 1: the slots hold the working
;             set); c2 replacements without an interrupt mean thrashing
;             (reason 2: the handler partitions the program with the PC
;             filter)
;
; The handler (coproc_handler.c, "value") harvests every slot (value,
; hits, hits + misses, total), masks loads it is confident about through
; the PC filter's ignore bits, and resets the CAM, the slots and the index
; registers. A load's estimated invariance is its top value's hits over
; all its samples (docs/coproc.md).
.name value
.handler value
.classes load
.fields pc value
.dfe load load
.iwidth 16
.cwidth 8
.base b0 0             ; active values
.base b1 128           ; hits in the region
.base b2 256           ; totals
.base b3 384           ; misses in the region
.const c1 48           ; failed replacements before an interrupt
.const c2 512          ; replacements before thrashing is declared (4 x slots)
.const c3 127          ; slots - 1
.const c4 255          ; random numbers 0..255
.const c6 16           ; misses before the active value may be re-selected
.param slots 128       ; needs coproc cam >= 128 (the default)
.param confident 32    ; samples before a clearly biased load is masked
.param hi_permille 900 ; ... invariance at least 90%
.param lo_permille 100 ; ... or at most 10%
.param enough 512      ; samples after which any load is masked
.param max_width 6     ; at most 64 partitions
.param partition_interrupts 4
.param low_yield 1024  ; records per timer period under which a partition is left
; Spreading a load's samples over the run (docs/coproc.md, "Time slices"):
.param slice_div 8     ; the timer's period is an eighth of the time run so far ...
.param min_slice 5000  ; ... at least this, at most the timer setting
.param slice_ticks 1   ; a partition keeps the PC filter for one period at a time
.param min_visits 3    ; once thrashing was seen, mask only loads sampled in 3 periods
.param hold 128        ; ... and ignore a load with 128 samples in this period until the next
.param resample_thrashed 1000000 ; once thrashing was seen, unmask masked loads every 1M cycles

load:     lookup i0, pc          -> miss nomatch
          ld v0, [b0 + i0]
          cmp v0, value          -> nz mismatch
          inc [b1 + i0]
count:    inc [b2 + i0]          -> nsat DONE
          mov i4, 3              -> INTERRUPT     ; a total counter is full
mismatch: inc [b3 + i0]
          ld v1, [b3 + i0]
          cmp v1, c6             -> lt count      ; a short region: keep the value
          ld v2, [b1 + i0]
          shl v2, v2, 3
          cmp v1, v2             -> lt count      ; matched a ninth or more: keep it
          st [b0 + i0], value                     ; re-select the active value
          st [b1 + i0], 0
          st [b3 + i0], 0        -> count
nomatch:  ld v2, [b2 + i7]                        ; the candidate's total
          rand v3, c4
          cmp v3, v2             -> lt failed     ; it has seen more: keep it
          camw i7, pc
          st [b0 + i7], value
          st [b1 + i7], 1                       ; the allocating sample is a hit
          st [b2 + i7], 1
          st [b3 + i7], 0
          add i7, i7, 1
          and i7, i7, c3
          sub i6, i6, 1
          add i5, i5, 1
          cmp i5, c2             -> lt DONE
          mov i4, 2              -> INTERRUPT     ; thrashing
failed:   add i6, i6, 1
          cmp i6, c1             -> lt DONE
          mov i4, 1              -> INTERRUPT     ; the slots hold the working set
