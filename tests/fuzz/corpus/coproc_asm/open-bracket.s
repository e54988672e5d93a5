.classes load
.fields pc
.dfe load s
s: ld v0, [b0 + 
