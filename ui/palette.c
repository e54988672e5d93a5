/*
 * palette.c — the attribute colours shared by the screen and the SVG
 * pictures (palette.h).
 */
#include "palette.h"
#include "textbuf.h"

static const struct pal_entry plain = { PAL_DEFAULT, PAL_DEFAULT, 0 };

static const struct {
	int attr;
	struct pal_entry e;
} table[] = {
	{ TB_BOLD, { PAL_DEFAULT, PAL_DEFAULT, 1 } },
	{ TB_TITLE, { PAL_CYAN, PAL_DEFAULT, 1 } },
	{ TB_TITLE_FOCUS, { PAL_BLACK, PAL_CYAN, 1 } },
	{ TB_HEAD, { PAL_BLACK, PAL_YELLOW, 0 } },
	{ TB_HILITE, { PAL_WHITE, PAL_MAGENTA, 1 } },
	{ TB_MISS, { PAL_RED, PAL_DEFAULT, 1 } },
	{ TB_WARN, { PAL_YELLOW, PAL_DEFAULT, 0 } },
	{ TB_GOOD, { PAL_GREEN, PAL_DEFAULT, 0 } },
	{ TB_INFO, { PAL_CYAN, PAL_DEFAULT, 0 } },
	/* CPI-stack components: base, then the miss kinds in legend.c's order */
	{ TB_BAR0 + 0, { PAL_BLACK, PAL_WHITE, 0 } },    /* base */
	{ TB_BAR0 + 1, { PAL_BLACK, PAL_CYAN, 0 } },     /* L1I */
	{ TB_BAR0 + 2, { PAL_WHITE, PAL_BLUE, 1 } },     /* L2I */
	{ TB_BAR0 + 3, { PAL_BLACK, PAL_GREEN, 0 } },    /* ITLB */
	{ TB_BAR0 + 4, { PAL_BLACK, PAL_YELLOW, 0 } },   /* L1D */
	{ TB_BAR0 + 5, { PAL_WHITE, PAL_RED, 1 } },      /* L2D */
	{ TB_BAR0 + 6, { PAL_WHITE, PAL_MAGENTA, 1 } },  /* DTLB */
	{ TB_BAR0 + 7, { PAL_BLACK, PAL_MAGENTA, 0 } },  /* bpred */
	{ TB_BAR0 + 8, { PAL_WHITE, PAL_BLACK, 1 } },    /* FU (long latency) */
};

const struct pal_entry *palette_of(int attr)
{
	for (unsigned i = 0; i < sizeof table / sizeof table[0]; i++)
		if (table[i].attr == attr)
			return &table[i].e;
	return &plain;
}

/* xterm's default palette for the eight ANSI colours; white is its light
 * grey (229), so a white bar still shows on a white slide. */
static const char *const rgb[PAL_COUNT] = {
	"#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5",
};

const char *palette_rgb(int colour, int background)
{
	if (colour < 0 || colour >= PAL_COUNT)
		return background ? "#ffffff" : "#000000";
	return rgb[colour];
}

const char *palette_bar_rgb(int k)
{
	return palette_rgb(palette_of(TB_BAR0 + k)->bg, 1);
}
