/*
 * palette.h — the colour of each text attribute (textbuf.h), in one table
 * that both the terminal and the SVG pictures read: the screen turns an
 * entry into a curses colour pair, `export svg` and `ivx compare --svg`
 * into fill colours. So a slide shows an L2 D-cache miss in the red the
 * student saw on the screen.
 *
 * Colours are the eight ANSI colours, numbered as curses numbers them
 * (COLOR_BLACK 0 ... COLOR_WHITE 7); PAL_DEFAULT is the terminal's own
 * foreground or background. For SVG each has the RGB of xterm's default
 * palette, and the default foreground/background are black on white.
 */
#ifndef IVX_PALETTE_H
#define IVX_PALETTE_H

enum pal_colour {
	PAL_DEFAULT = -1,
	PAL_BLACK, PAL_RED, PAL_GREEN, PAL_YELLOW, PAL_BLUE, PAL_MAGENTA, PAL_CYAN, PAL_WHITE,
	PAL_COUNT
};

struct pal_entry {
	int fg, bg;     /* enum pal_colour */
	int bold;       /* drawn bold */
};

/* How attribute attr (enum tb_attr) is coloured. An attribute with no
 * colour of its own (TB_NORMAL, TB_DIM, TB_BOLD) has PAL_DEFAULT both. */
const struct pal_entry *palette_of(int attr);
/* "#rrggbb" of a colour; PAL_DEFAULT gives the foreground's (black) when
 * `background` is 0, else white. */
const char *palette_rgb(int colour, int background);
/* The fill of CPI-stack component k (0 base, 1 + enum acct_comp): the
 * background of its bar attribute TB_BAR0 + k. */
const char *palette_bar_rgb(int k);

#endif
