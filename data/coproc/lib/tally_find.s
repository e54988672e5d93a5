; lib/tally_find.s — the tally of a load without a slot (value_topk_ring.s
; and value_topk_adapt.s): a spill-ring entry of its pc, a total, a value's
; key and that value's count, found through a pointer word at
; data[c12 + hash(pc)] (b1 is 0).
;
; Comes in with v1 the record's (load, value) key. Goes to `tally` (lib/
; tally_count.s) when the load has none in this harvest's ring (no
; pointer, one from before the last harvest, or another load's of the same
; hash); else falls through with v4 the index of the entry's first word
; (its pc) and v5 the pointer's address.
          hash v5, pc                             ; no slot: the load's tally in the ring
          add v5, v5, c12                         ; its pointer (absolute: b1 is 0)
          ld v4, [b1 + v5]       -> z tally       ; none yet
          cmp v7, v4             -> lt tally      ; from before the last harvest
          sub v4, v4, 1
          ld v3, [b2 + v4]
          cmp v3, pc             -> nz tally      ; another load's (the same hash)
