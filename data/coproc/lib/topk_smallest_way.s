; lib/topk_smallest_way.s — which of a full slot's 4 ways a new value
; takes, space-saving: the way with the smallest count (value_topk.s
; through lib/topk_count_value.s, and value_topk_ipw.s).
;
; Comes in with i0 the slot. One new value in c6 + 1 (an LFSR draw) goes
; on, the others only count in the total (-> count); an empty way 0 is
; taken at once (-> take). Leaves v2 and i2 the smallest count among ways
; 0-2 and its way, v3 and i3 way 3's count and way: the includer's
; `cmp v3, v2 -> ge X` and `mov v2, v3`, `mov i2, i3` finish the choice
; and go on where each program does (value_topk.s spills the victim
; first). Defines way2, way3; count and take are the includer's.
          rand v3, c6            -> nz count      ; the others: not counted
          add i2, i0, c5                          ; way 0
          ld v2, [b1 + i2]       -> z take        ; empty
          add i3, i2, c5                          ; way 1
          ld v3, [b1 + i3]
          cmp v3, v2             -> ge way2
          mov v2, v3
          mov i2, i3
way2:     add i3, i3, c5
          ld v3, [b1 + i3]
          cmp v3, v2             -> ge way3
          mov v2, v3
          mov i2, i3
way3:     add i3, i3, c5
          ld v3, [b1 + i3]
