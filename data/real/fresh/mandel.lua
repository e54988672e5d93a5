-- mandel.lua: floating-point Mandelbrot escape counts and a small matrix
-- product, printed as checksums
local w, h, it = 72, 36, 60
local total = 0
for y = 0, h - 1 do
  local ci = (y / h) * 2.4 - 1.2
  local row = {}
  for x = 0, w - 1 do
    local cr = (x / w) * 3.2 - 2.2
    local zr, zi, n = 0.0, 0.0, 0
    while n < it and zr * zr + zi * zi < 4.0 do
      zr, zi = zr * zr - zi * zi + cr, 2 * zr * zi + ci
      n = n + 1
    end
    total = total + n
    row[#row + 1] = n == it and "#" or "."
  end
  if y % 9 == 0 then print(table.concat(row)) end
end
print("total", total)
local n = 40
local a, b = {}, {}
for i = 1, n do a[i], b[i] = {}, {} for j = 1, n do a[i][j] = math.sin(i + j); b[i][j] = math.cos(i - j) end end
local s = 0.0
for i = 1, n do for j = 1, n do local t = 0.0 for k = 1, n do t = t + a[i][k] * b[k][j] end s = s + t end end
print(string.format("%.6f", s))
