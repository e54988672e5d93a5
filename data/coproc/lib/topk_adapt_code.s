; lib/topk_adapt_code.s — the microcode of value_topk_adapt.s and
; value_topk_even.s (the same to the instruction; each program keeps its
; own .const and .param lines, and includes this after them). The notes
; are value_topk_adapt.s's.
load:     shl v1, pc, 40
          xor v1, v1, value                       ; the (load, value) key
          lookup i0, pc          -> miss nomatch
          lookup i1, v1          -> miss newval
          .include "topk_count_value.s"           ; i1: the value's way; count, newval ... take
nomatch:  .include "tally_find.s"                ; no slot: the load's tally in the ring
          add v6, v4, 1
          ld v3, [b2 + v6]                        ; the tally's total so far:
          cmp v3, c13            -> ge promote    ; 16 or more, a hot load: try for a slot
          rand v3, c11           -> z promote     ; else one in 4
          .include "tally_count.s"
promote:  .include "topk_evict_slot.s"             ; value_topk.s's path to a slot
          .include "topk_alloc_slot.s"
; lib/topk_slot_taken.s's lines, written out: its `failed` drops the
; record, this program's counts it in the tally
          add i2, i2, c5                          ; ways 1-3 are empty
          caminv i2
          st [b1 + i2], 0
          add i2, i2, c5
          caminv i2
          st [b1 + i2], 0
          add i2, i2, c5
          caminv i2
          st [b1 + i2], 0
          add i7, i7, 1
          and i7, i7, c3
          sub i6, i6, 1
          add i5, i5, 1
          cmp i5, c2             -> lt ring
          mov i4, 2              -> INTERRUPT     ; thrashing
ring:     cmp v7, c7             -> lt DONE
          mov i4, 4              -> INTERRUPT     ; the spill ring is full
failed:   add i6, i6, 1                           ; no slot: the record counts in its tally
          add v6, v4, 2
          ld v3, [b2 + v6]
          cmp v3, v1             -> z fvalhit
          add v4, v4, 1          -> ftotal
fvalhit:  add v6, v6, 1
          inc [b2 + v6]
          add v4, v4, 1
ftotal:   inc [b2 + v4]
          cmp i6, c1             -> lt DONE
          mov i4, 1              -> INTERRUPT     ; the slots hold the working set
