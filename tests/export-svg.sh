#!/bin/sh
# export-svg.sh IVX — the explorer's `export svg|png`: run
# tests/golden/export-slides.ivx (whose printed output tests/ui-golden.sh
# compares) with HOME in a temporary directory, where its `~/` files land,
# and check the pictures: well-formed XML (xmllint, or Python's parser),
# the run's numbers and text, and the terminal's colours (ui/palette.c:
# L2D red #cd0000, L2I blue #0000ee, the ROB head's yellow #cdcd00). Then
# PNG through a converter on PATH (a stand-in that checks what it is given
# and, when rsvg-convert is installed, the real one), the error naming the
# converters when there is none, and bad arguments.
set -u
IVX=$1
cd "$(dirname "$0")/.." || exit 2
case $IVX in /*) ;; *) IVX=$(pwd)/$IVX ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
wellformed() {
	if command -v xmllint >/dev/null 2>&1; then xmllint --noout "$1"
	else python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$1"; fi
}
K3="data/bin/kernels/k3_long_dmiss"
mkdir "$tmp/home"
if env LC_ALL=C HOME="$tmp/home" "$IVX" -x tests/golden/export-slides.ivx $K3 -- miss 2 >"$tmp/out" 2>&1; then ok
else bad "export-slides.ivx: $(tail -n 2 "$tmp/out")"; fi
H=$tmp/home
for f in timeline timeline4 timeline160 cpistack screen rob sfmt; do
	if [ -s "$H/$f.svg" ] && wellformed "$H/$f.svg"; then ok; else bad "$f.svg missing or not well-formed"; fi
done
has() { grep -q -- "$2" "$H/$1.svg" || bad "$1.svg lacks $2"; }
# timeline: the pane's window (100 columns less the 7 of labels: 93
# cycles; at 1:4 four times as many; 153 at 160 columns), the long miss
# red from its begin
has timeline 'k3_long_dmiss miss 2: cycles 15425-15517'
has timeline '<title>L2D, cycles 15477-15517 (41 cycles), pc 0x4007f0</title>'
has timeline 'fill="#cd0000"'
has timeline '>ROB full<'
has timeline4 'k3_long_dmiss miss 2: cycles 15146-15517'
# batch mode: the screen is `set width` wide, as for `show screen`
has timeline160 'k3_long_dmiss miss 2: cycles 15365-15517'
# CPI stacks: every method, L2I blue, the run's CPI
for m in naive 'naive non-spec' 'IBM POWER5' FMT sFMT 'ivx counters'; do has cpistack ">$m</text>"; done
has cpistack 'fill="#0000ee"'
has cpistack '15517 cycles, 1480 instructions'
[ "$(grep -c '>10.484</text>' "$H/cpistack.svg")" = 6 ] || bad "cpistack.svg: six bars at CPI 10.484"
# screen and pane: the text, the ROB head on yellow
has screen 'ldr x2, \[x1\]'
has screen 'fill="#cdcd00"'
has screen 'ROB 128/128'
has rob 'executing 221 L2D miss'
has sfmt 'shared FMT: 256 rows'   # a pane's view by name, as `show sfmt`
[ $fail = 0 ] && ok

# PNG through the converter found on PATH: a stand-in rsvg-convert that
# accepts only `-f png FILE` with FILE an SVG, and writes a PNG signature
mkdir "$tmp/bin" "$tmp/empty"
cat >"$tmp/bin/rsvg-convert" <<'SH'
#!/bin/sh
[ "$1" = -f ] && [ "$2" = png ] && grep -q '<svg' "$3" || exit 3
printf '\211PNG\r\n\032\nstand-in'
SH
chmod +x "$tmp/bin/rsvg-convert"
png() {  # PATH SCRIPT-LINES...
	p=$1
	shift
	printf "%s\n" "step 3000" "$@" >"$tmp/png.ivx"
	env PATH="$p" HOME="$H" "$IVX" -x "$tmp/png.ivx" $K3 -- miss 2 >"$tmp/png.out" 2>&1
}
if png "$tmp/bin:/usr/bin:/bin" "export png ~/t.png" && head -c 4 "$H/t.png" | od -c | grep -q 'P   N   G' &&
   grep -q 'Wrote .*/t.png (timeline)' "$tmp/png.out"; then ok
else bad "export png via rsvg-convert: $(cat "$tmp/png.out")"; fi
# no converter: one line naming them, no file
if ! png "$tmp/empty" "export png ~/none.png cpistack" &&
   grep -q 'no SVG converter found: install rsvg-convert (Debian: apt-get install librsvg2-bin) or ImageMagick' "$tmp/png.out" &&
   [ ! -e "$H/none.png" ]; then ok
else bad "export png without a converter: $(cat "$tmp/png.out")"; fi
# a converter that fails: the target is left alone, and its complaint is in the error line
printf 'old' >"$H/keep.png"
printf '#!/bin/sh\necho "cannot parse the SVG: bad token" >&2\nexit 1\n' >"$tmp/bin/rsvg-convert"
if ! png "$tmp/bin:/usr/bin:/bin" "export png ~/keep.png" &&
   grep -q 'could not convert the SVG (exit status 1): cannot parse the SVG: bad token$' "$tmp/png.out" &&
   [ "$(cat "$H/keep.png")" = old ]; then ok
else bad "a failing converter: $(cat "$tmp/png.out")"; fi
if command -v rsvg-convert >/dev/null 2>&1; then
	if png "$PATH" "export png ~/real.png screen" && head -c 4 "$H/real.png" | od -c | grep -q 'P   N   G'; then ok
	else bad "export png with the real rsvg-convert: $(cat "$tmp/png.out")"; fi
fi

# bad arguments: the script stops with one line
for case in "export|usage: export svg|png FILE" "export gif ~/a.gif|usage: export svg|png FILE" \
	    "export svg ~/a.svg nopane|no pane \"nopane\"" "export svg $K3|is the program or its configuration" \
	    "export svg /nonexistent-dir/a.svg|export: "; do
	line=${case%%|*}
	want=${case#*|}
	printf '%s\n' "step 10" "$line" >"$tmp/bad.ivx"
	if ! env HOME="$H" "$IVX" -x "$tmp/bad.ivx" $K3 -- miss 2 >"$tmp/bad.out" 2>&1 &&
	   grep -q -F -- "$want" "$tmp/bad.out"; then ok
	else bad "'$line': $(cat "$tmp/bad.out")"; fi
done
[ ! -e "$H/a.svg" ] && [ ! -e "$H/a.gif" ] || bad "a refused export wrote a file"

# In a locale with a decimal comma the explorer still reads "1.5" and
# writes SVG numbers with a point (it takes only the character set from
# the environment). The locale is built here when localedef can (Debian's
# locales data); else the check is said to be skipped.
if localedef -i de_DE -f UTF-8 "$tmp/de_DE.UTF-8" >/dev/null 2>&1; then
	printf '%s\n' "step 3000" "print 3 * 1.5" "export svg $tmp/de.svg cpistack" >"$tmp/de.ivx"
	env LOCPATH="$tmp" LC_ALL=de_DE.UTF-8 HOME="$H" "$IVX" -x "$tmp/de.ivx" $K3 -- miss 2 >"$tmp/de.out" 2>&1
	if grep -q '^= 4.5$' "$tmp/de.out" && wellformed "$tmp/de.svg" && ! grep -q '="[0-9]*,[0-9]' "$tmp/de.svg"; then ok
	else bad "decimal-comma locale: $(head -c 300 "$tmp/de.out"; grep -o '="[0-9]*,[0-9]*"' "$tmp/de.svg" 2>/dev/null | head -2)"; fi
else
	echo "export-svg: no de_DE locale data (localedef failed): the decimal-comma check is skipped"
fi

echo "export-svg: $pass passed, $fail failed"
[ $fail = 0 ]
