# subst.sed: a substitution script for the unseen set (data/real/cases-unseen)
s/\([a-z][a-z]*\) \([a-z][a-z]*\)\.$/\2 \1!/
s/the/THE/g
/cache/s/miss\(es\)*/hit/g
/^[0-9]*7:/d
y/aeiou/AEIOU/
