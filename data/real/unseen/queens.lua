-- queens.lua: N-queens by backtracking, a coroutine generator and string
-- building; a different Lua program from bench.lua
local function queens(n)
  local cols, d1, d2, count = {}, {}, {}, 0
  local function place(r)
    if r > n then count = count + 1; return end
    for c = 1, n do
      if not cols[c] and not d1[r + c] and not d2[r - c + n] then
        cols[c], d1[r + c], d2[r - c + n] = true, true, true
        place(r + 1)
        cols[c], d1[r + c], d2[r - c + n] = nil, nil, nil
      end
    end
  end
  place(1)
  return count
end
for n = 4, 8 do io.write(n, ":", queens(n), " ") end
print()
local gen = coroutine.wrap(function()
  local a, b = 0, 1
  while true do coroutine.yield(a); a, b = b, (a + b) % 1000003 end
end)
local acc = {}
for i = 1, 3000 do local v = gen(); if v % 7 == 0 then acc[#acc + 1] = tostring(v) end end
print(#acc, table.concat(acc, ","):len(), acc[#acc])
local s = ("abc"):rep(2000):gsub("b", function(x) return x:upper() end)
print(#s, s:sub(1, 12))
