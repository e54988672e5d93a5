; value.s — load-value profiling (Zilles & Sohi, HPCA 2001, section 5).
;
; Each of 64 slots watches one static load: CAM entry i holds its pc, and
; the data array holds its active value (b0+i), hits (b1+i: samples equal
; to the active value since it became active), total (b2+i: every sample)
; and misses (b3+i). Byte counters (.cwidth 8), as in the paper.
;
;   hit       hits+1, total+1
;   mismatch  misses+1; once misses exceed hits the active value is
;             re-selected (the sample's value becomes active, hits=1,
;             misses=0) -- unless the old value earned `c5` hits, then the
;             slot is turned off (misses = c0) to keep what it learned
;   total saturates: interrupt (reason 3) so the handler harvests it
;   no slot:  informational replacement -- the candidate slot (i7, round
;             robin) is replaced when a random number 0..255 is at least
;             its total; a replacement that fails counts in i6, and c1
;             failures in a row interrupt (reason 1: the slots hold the
;             working set); c2 replacements without an interrupt mean
;             thrashing (reason 2: the handler partitions the program
;             with the PC filter)
;
; The handler (coproc_handler.c, "value") harvests the slots, masks loads
; it is confident about through the PC filter's ignore bits, and resets
; the CAM, the slots and the index registers.
.name value
.handler value
.classes load
.fields pc value
.dfe load load
.iwidth 16
.cwidth 8
.base b0 0             ; active values
.base b1 64            ; hits
.base b2 128           ; totals
.base b3 192           ; misses (c0: slot turned off)
.const c0 255          ; the counters' saturation value
.const c1 48           ; failed replacements before an interrupt
.const c2 256          ; replacements before thrashing is declared (4 x slots)
.const c3 63           ; slots - 1
.const c4 255          ; random numbers 0..255
.const c5 16           ; hits that make an active value worth keeping
.param slots 64
.param confident 32    ; samples before a clearly biased load is masked
.param hi_permille 900 ; ... invariance at least 90%
.param lo_permille 100 ; ... or at most 10%
.param enough 512      ; samples after which any load is masked
.param max_width 6     ; at most 64 partitions
.param partition_interrupts 4

load:     lookup i0, pc          -> miss nomatch
          ld v1, [b3 + i0]
          cmp v1, c0             -> z DONE        ; slot turned off
          ld v0, [b0 + i0]
          cmp v0, value          -> nz mismatch
          inc [b1 + i0]
count:    inc [b2 + i0]          -> nsat DONE
          mov i4, 3              -> INTERRUPT     ; a total counter is full
mismatch: inc [b3 + i0]
          ld v1, [b3 + i0]
          ld v2, [b1 + i0]
          cmp v2, v1             -> ge count      ; hits >= misses: keep the value
          cmp v2, c5             -> ge turnoff
          st [b0 + i0], value                     ; re-select the active value
          st [b1 + i0], 1
          st [b3 + i0], 0        -> count
turnoff:  st [b3 + i0], c0       -> count
nomatch:  ld v2, [b2 + i7]                        ; the candidate's total
          rand v3, c4
          cmp v3, v2             -> lt failed     ; it has seen more: keep it
          camw i7, pc
          st [b0 + i7], value
          st [b1 + i7], 1
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
