.classes load
.fields pc
.dfe load s
s: nop -> s
.target t3 s
