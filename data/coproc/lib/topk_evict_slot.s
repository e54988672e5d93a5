; lib/topk_evict_slot.s — the informational replacement of candidate slot
; i7 by a load without a slot, and the victim's spill to the ring (every
; value_topk*.s program includes it after its own label).
;
; The candidate keeps its slot (-> failed) when a random 0..255 is below 8
; x its total; an empty one is taken at once (-> alloc). Otherwise the
; victim's pc, its total, and its largest way's key and own count (less
; what the way inherited) are written to the ring at b2 (v7 words so far),
; and the includer's allocation follows. Defines sp2, sp3, sp4; branches
; to alloc (the includer's) and failed (lib/topk_slot_taken.s).
          ld v2, [b1 + i7]                        ; the candidate's total
          shl v2, v2, 3                           ; x 8: 32 samples keep a slot
          rand v3, c4
          cmp v3, v2             -> lt failed     ; it has seen more: keep it
          ld v2, [b1 + i7]       -> z alloc       ; an empty slot: nothing to spill
          ld v3, [b0 + i7]                        ; spill the victim: its pc,
          st [b2 + v7], v3
          add v7, v7, 1
          st [b2 + v7], v2                        ; its total,
          add v7, v7, 1
          add i2, i7, c5                          ; its largest way (way 0 first)
          ld v2, [b1 + i2]
          add i3, i2, c5
          ld v3, [b1 + i3]
          cmp v2, v3             -> ge sp2
          mov v2, v3
          mov i2, i3
sp2:      add i3, i3, c5
          ld v3, [b1 + i3]
          cmp v2, v3             -> ge sp3
          mov v2, v3
          mov i2, i3
sp3:      add i3, i3, c5
          ld v3, [b1 + i3]
          cmp v2, v3             -> ge sp4
          mov v2, v3
          mov i2, i3
sp4:      ld v3, [b3 + i2]                        ; its own count (less inherited)
          sub v2, v2, v3
          ld v3, [b0 + i2]                        ; and its key
          st [b2 + v7], v3
          add v7, v7, 1
          st [b2 + v7], v2
          add v7, v7, 1
