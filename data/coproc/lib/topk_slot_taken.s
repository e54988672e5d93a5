; lib/topk_slot_taken.s — the end of an allocation in slot i7, after way 0
; (every value_topk*.s program): ways 1-3 emptied, the next candidate slot
; (round robin), the replacement counted: c2 of them since the last
; interrupt is thrashing (interrupt 2), and a spill ring with no room for
; another slot's entry interrupts (4). `failed`: a replacement refused;
; c1 of them interrupt (1: the slots hold the working set). Defines ring
; and failed.
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
failed:   add i6, i6, 1
          cmp i6, c1             -> lt DONE
          mov i4, 1              -> INTERRUPT     ; the slots hold the working set
