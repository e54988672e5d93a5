# freq.awk: counts of each word, then the most frequent ones
{ for (i = 2; i <= NF; i++) { w = tolower($i); gsub(/[^a-z]/, "", w); if (w != "") c[w]++ } }
END { for (w in c) if (c[w] > 20000) print w, c[w] }
