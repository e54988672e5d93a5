; lib/topk_count_value.s — value_topk.s's count of a record whose load has
; a slot (value_topk.s and value_topk_ring.s include it; their notes say
; why it works so).
;
; Comes in with i0 the load's slot, v1 its (load, value) key and, falling
; in at the first line, i1 the way that holds that key (else the includer
; branches to `newval`). The value's way and the slot's total count one;
; a new value takes an empty way (ways fill in order), or one time in 2
; the way with the smallest count (`full`, lib/topk_smallest_way.s), whose
; own hits go to the spill ring first (`evict`) while it has room for a
; slot's entry besides. Defines count, newval, full, evict, take.
          inc [b1 + i1]                           ; the value's count
count:    inc [b1 + i0]          -> nsat DONE     ; the slot's total
          mov i4, 3              -> INTERRUPT     ; a total counter is full
newval:   add i3, i0, c8                          ; way 3 (ways fill in order)
          ld v2, [b1 + i3]       -> nz full       ; used: no way is empty
          add i2, i0, c9                          ; way 1 (v2 = 0: inherits nothing)
          ld v3, [b1 + i2]       -> z take        ; empty: the value takes it
          add i2, i2, c5                          ; way 2
          ld v3, [b1 + i2]       -> z take
          mov i2, i3             -> take          ; way 3
full:     .include "topk_smallest_way.s"          ; v2, i2: ways 0-2's smallest; v3, i3: way 3
          cmp v3, v2             -> ge evict
          mov v2, v3
          mov i2, i3
evict:    ld v3, [b3 + i2]                        ; the victim's own hits:
          sub v3, v2, v3                          ; its count less what it inherited
          cmp v3, c10            -> lt take       ; one hit: not worth a ring entry
          add v4, v7, 8
          cmp c7, v4             -> lt take       ; keep room for a slot's spill
          st [b2 + v7], pc                        ; spill the way: its pc,
          add v7, v7, 1
          st [b2 + v7], 0                         ; no total (the slot's comes later),
          add v7, v7, 1
          ld v4, [b0 + i2]                        ; its key
          st [b2 + v7], v4
          add v7, v7, 1
          st [b2 + v7], v3                        ; and its own hits
          add v7, v7, 1
take:     camw i2, v1                             ; the smallest count's way
          st [b0 + i2], v1                        ; its key, for the spill
          st [b3 + i2], v2                        ; ... inherited
          inc [b1 + i2]          -> count         ; goes on from it + 1
