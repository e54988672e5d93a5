-- words.lua: word frequencies of a text file with string patterns, a
-- table sorted by a comparator, and string formatting
local f = assert(io.open(arg[1], "r"))
local count, order = {}, {}
for line in f:lines() do
  for word in line:gmatch("%a+") do
    word = word:lower()
    if not count[word] then count[word] = 0; order[#order + 1] = word end
    count[word] = count[word] + 1
  end
end
f:close()
table.sort(order, function(a, b)
  if count[a] ~= count[b] then return count[a] > count[b] end
  return a < b
end)
for i = 1, math.min(15, #order) do print(string.format("%-12s %7d", order[i], count[order[i]])) end
print(#order)
