.classes load
.fields pc
.dfe load s
s: nop -> z -
