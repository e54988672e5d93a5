.classes load
.fields pc
.dfe load s
s: nop -> DONE
.include "fuzz.s" ; a cycle
