; lib/topk_alloc_slot.s — a load takes candidate slot i7 (value_topk.s and
; value_topk_ring.s; value_topk_ipw.s writes weights instead): its pc in
; the CAM and at b0, a total of 1, and way 0 takes its value with a count
; of 1 and nothing inherited. lib/topk_slot_taken.s empties the other
; ways. Defines alloc.
alloc:    camw i7, pc
          st [b0 + i7], pc
          st [b1 + i7], 1                         ; this sample
          add i2, i7, c5                          ; way 0 takes its value
          shl v1, pc, 40
          xor v1, v1, value
          camw i2, v1
          st [b0 + i2], v1
          st [b1 + i2], 1
          st [b3 + i2], 0
