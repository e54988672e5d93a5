; callstack.s — call-stack monitoring: the co-processor keeps the call
; stack of return addresses (b0 + depth) and counts calls per depth
; (b1 + depth); i0 is the depth, i1 the deepest so far, i2 counts returns
; that did not go back to their call's successor (longjmp, tail tricks),
; i3 returns at depth 0 (the stack began before profiling). Depths
; saturate at 511 (.iwidth 9).
.name callstack
.handler callstack
.classes call return
.fields pc target
.dfe call call
.dfe return ret
.iwidth 9
.cwidth 32
.base b0 0             ; return addresses by depth
.base b1 512           ; calls made at each depth
.param depth 512

call:     add v0, pc, 4
          st [b0 + i0], v0
          inc [b1 + i0]
          add i0, i0, 1
          cmp i1, i0             -> ge DONE
          mov i1, i0             -> DONE          ; the deepest so far
ret:      sub i0, i0, 1          -> sat under
          ld v0, [b0 + i0]
          cmp v0, target         -> z DONE
          add i2, i2, 1          -> DONE
under:    add i3, i3, 1          -> DONE
