.classes load
.fields pc
.dfe load s
s: add v0, #1, #2
