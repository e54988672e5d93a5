; lib/tally_count.s — a record counted in its load's tally, or a new tally
; (value_topk_ring.s and value_topk_adapt.s; lib/tally_find.s found it).
;
; Falls in with v4 the index of the entry's first word: the record's value,
; when it is the tally's, counts (valhit), and the total does (total,
; totalonly).
; `tally`: no tally yet: an empty candidate slot is taken (alloc, in
; lib/topk_alloc_slot.s), else a new ring entry is written at v7 and its
; address kept in the pointer word at v5; then `ring` checks the ring's
; room.
          add v6, v4, 2
          ld v3, [b2 + v6]                        ; its value's key
          cmp v3, v1             -> z valhit
          add v4, v4, 1          -> totalonly
valhit:   add v6, v6, 1
          inc [b2 + v6]                           ; the value's count
total:    add v4, v4, 1
totalonly:inc [b2 + v4]          -> DONE          ; the tally's total
tally:    ld v2, [b1 + i7]       -> z alloc       ; an empty candidate slot: take it
          st [b2 + v7], pc                        ; a new tally, an entry of the ring: its pc,
          add v7, v7, 1
          st [b1 + v5], v7                        ; (its pointer: the total's word)
          st [b2 + v7], 1                         ; its total,
          add v7, v7, 1
          st [b2 + v7], v1                        ; this value's key
          add v7, v7, 1
          st [b2 + v7], 1                         ; and its count
          add v7, v7, 1          -> ring
