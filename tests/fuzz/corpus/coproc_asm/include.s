; includes: each file is the input again here, so this nests until the
; depth limit (in a/a/a/...) 
.classes load
.fields pc
.dfe load s
s: nop -> DONE
.include "a/include.s"
