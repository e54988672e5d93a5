#!/bin/sh
# check-layers.sh — the folder architecture, checked on every #include.
#
# engine/ is layered: each folder may include its own headers and those of
# the folders below it, never curses, libedit or a src/ or ui/ header:
#
#   base   errors, the allocator, opening input files
#   isa    decode, execute, guest memory, disassembly      (base)
#   guest  loader, system calls, symbols                   (base isa)
#   core   pipeline, memory system, predictor, events      (base isa guest)
#   acct   CPI accounting and the reference stacks         (base isa guest core)
#
# Any other engine folder is an instrument: it may include only the core's
# public headers (core/core.h, core/events.h, core/config.h, base/err.h,
# base/alloc.h, base/file.h, base/mix.h) and its own. And every allocation goes through base/alloc.h
# (ivx_malloc ...), which tests can make fail: no engine file but
# base/alloc.c calls the C library's allocator. Exit 1 with one line per
# offending include or call.
cd "$(dirname "$0")/../.." || exit 2
status=0
allowed_below() {
	case "$1" in
	base) echo "" ;;
	isa) echo "base" ;;
	guest) echo "base isa" ;;
	core) echo "base isa guest" ;;
	acct) echo "base isa guest core" ;;
	*) echo "INSTRUMENT" ;;
	esac
}
bad() { echo "layers: $1" >&2; status=1; }
for dir in engine/*/; do
	layer=$(basename "$dir")
	below=$(allowed_below "$layer")
	for f in "$dir"*.[ch]; do
		[ -e "$f" ] || continue
		grep -n '^[[:space:]]*#[[:space:]]*include' "$f" | while IFS= read -r line; do
			lineno=${line%%:*}
			inc=$(printf '%s\n' "$line" | sed -n 's/.*#[[:space:]]*include[[:space:]]*\([<"][^>"]*[>"]\).*/\1/p')
			name=$(printf '%s' "$inc" | tr -d '<>"')
			case "$inc" in
			\<*)
				case "$name" in
				curses.h|ncurses.h|ncursesw/*|histedit.h|editline/*|readline/*|term.h)
					echo "$f:$lineno: engine code includes the terminal library <$name>" ;;
				esac
				continue ;;
			esac
			case "$name" in
			*/*) folder=${name%%/*} ;;
			*)
				[ -e "$dir$name" ] || echo "$f:$lineno: \"$name\" is not in $dir (cross-folder includes name their folder)"
				continue ;;
			esac
			if [ ! -d "engine/$folder" ]; then
				echo "$f:$lineno: \"$name\" is outside engine/ (engine includes no src/ or ui/ header)"
			elif [ "$below" = INSTRUMENT ]; then
				case "$name" in
				core/core.h|core/events.h|core/config.h|base/err.h|base/alloc.h|base/file.h|base/mix.h) ;;
				*) echo "$f:$lineno: instrument $layer includes \"$name\"; only core/core.h, core/events.h, core/config.h, base/err.h, base/alloc.h, base/file.h and base/mix.h are public" ;;
				esac
			else
				case " $below " in
				*" $folder "*) ;;
				*) echo "$f:$lineno: $layer includes \"$name\" from $folder, which is not below it" ;;
				esac
			fi
		done
	done
done > /tmp/check-layers.$$ 2>&1
grep -nE '(^|[^A-Za-z0-9_.>])(malloc|calloc|realloc|strdup|strndup|free|aligned_alloc|posix_memalign)[[:space:]]*\(' \
	engine/*/*.[ch] | grep -v '^engine/base/alloc\.c:' |
	sed 's/^\([^:]*:[0-9]*\):.*/\1: allocates without base\/alloc.h (use ivx_malloc and friends)/' >> /tmp/check-layers.$$
if [ -s /tmp/check-layers.$$ ]; then
	sed 's/^/layers: /' /tmp/check-layers.$$ >&2
	status=1
fi
rm -f /tmp/check-layers.$$
n=$(ls engine/*/*.[ch] | wc -l)
if [ $status = 0 ]; then echo "layers: $n engine files, every include within its layer: 1 passed, 0 failed"; else echo "layers: 0 passed, 1 failed"; fi
exit $status
