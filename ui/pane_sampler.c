/*
 * pane_sampler.c — the DCPI sampler at work: each counter with its value,
 * period and events to overflow; the interrupts waiting out their skid;
 * the driver's hash table as a heat strip (one cell per group of buckets,
 * shaded by how many of their ways are in use); the two overflow buffers;
 * samples taken and the profiling overhead so far. In a short pane
 * PgDn scrolls down to the rows it cuts.
 */
#include <stdio.h>
#include <string.h>
#include "explorer/explorer.h"
#include "explorer/inst_dcpi.h"
#include "explorer/instrument.h"
#include "pane.h"
#include "textbuf.h"

/* All its rows (at most 7); the rows used. */
static int sampler_rows(struct pane *p, struct explorer *x, struct textbuf *tb)
{
	struct xdcpi *xd = explorer_instrument(x, "dcpi");
	const struct dcpi *d = xdcpi_sampler(xd);
	if (!d) {
		tb_puts(tb, 0, 0, TB_DIM, "sampling is off: `sampling on` starts it");
		return 1;
	}
	int y = 0;
	for (int i = 0; i < dcpi_counter_count(d) && y < tb->h; i++, y++) {
		struct dcpi_counter_view v;
		dcpi_counter_at(d, i, &v);
		int col = tb_printf(tb, 0, y, TB_BOLD, "ctr%d %-8s", i, dcpi_event_name(v.event));
		col = tb_printf(tb, col, y, 0, " %6llu/%-6llu %6llu to overflow", (unsigned long long)v.value,
				(unsigned long long)v.period, (unsigned long long)v.to_overflow);
		if (v.n_mux > 1)
			tb_printf(tb, col, y, TB_DIM, "  (1 of %d multiplexed)", v.n_mux);
	}
	if (y < tb->h) {
		int col = tb_puts(tb, 0, y, TB_BOLD, "pending ");
		if (!dcpi_pending_count(d))
			tb_puts(tb, col, y, TB_DIM, "none");
		for (int i = 0; i < dcpi_pending_count(d); i++) {
			int ev = 0;
			uint64_t at = 0, cause = 0;
			dcpi_pending_at(d, i, &ev, &at, &cause);
			col = tb_printf(tb, col, y, TB_WARN, "%s in %llu  ", dcpi_event_name(ev),
					(unsigned long long)(at >= explorer_cycle(x) ? at - explorer_cycle(x) : 0));
		}
		y++;
	}
	/* heat strip: the buckets folded into the width left */
	uint32_t nb = dcpi_table_buckets(d);
	int w = tb->w - 7;
	if (y < tb->h && w > 4) {
		tb_puts(tb, 0, y, TB_BOLD, "table ");
		static const wchar_t shade[] = { L' ', L'░', L'▒', L'▓', L'█' };
		uint32_t per = (nb + (uint32_t)w - 1) / (uint32_t)w;
		for (int c = 0; c < w && (uint32_t)c * per < nb; c++) {
			uint32_t used = 0, n = 0;
			for (uint32_t b = (uint32_t)c * per; b < nb && b < (uint32_t)(c + 1) * per; b++, n++)
				used += (uint32_t)dcpi_bucket_used(d, b);
			int level = n ? (int)((used * 4 + 2 * n) / (4 * n)) : 0;
			if (used && !level)
				level = 1;
			tb_putc(tb, 6 + c, y, TB_BAR0 + level, shade[level]);
		}
		y++;
	}
	struct dcpi_stats st;
	dcpi_get_stats(d, &st);
	const struct dcpi_config *cfg = dcpi_config(d);
	if (y < tb->h)
		tb_printf(tb, 0, y++, 0, "buffers %u/%u %u/%u (active %d), %llu drains, %llu evictions",
			  st.buffer_fill[0], cfg->buffer_entries, st.buffer_fill[1], cfg->buffer_entries, st.active_buffer,
			  (unsigned long long)st.drains, (unsigned long long)st.evictions);
	if (y < tb->h)
		tb_printf(tb, 0, y++, 0, "samples %llu, hit rate %.1f%%, overhead %.2f%%%s",
			  (unsigned long long)st.samples_total,
			  st.samples_total ? 100.0 * st.hits / st.samples_total : 0.0, dcpi_overhead_pct(d),
			  cfg->charge ? " (charged)" : "");
	return y;
}

static void sampler_render(struct pane *p, struct explorer *x, struct textbuf *tb)
{
	pane_render_scrolled(p, x, tb, 8, sampler_rows);
}

static void sampler_status(struct pane *p, struct explorer *x, char *buf, size_t n)
{
	const struct dcpi *d = xdcpi_sampler(explorer_instrument(x, "dcpi"));
	struct dcpi_stats st;
	if (!d) {
		snprintf(buf, n, "off");
		return;
	}
	dcpi_get_stats(d, &st);
	snprintf(buf, n, "%llu samples, skid %u", (unsigned long long)st.samples_total, dcpi_config(d)->skid);
}

static const struct pane_class pane_sampler = {
	.name = "sampler", .title = "DCPI sampler",
	.summary = "counters, pending interrupts, the driver's hash table and buffers, overhead",
	.min_w = 40, .min_h = 4, .batch_h = 7, .scroll_unit = 2, .scroll_down = 1,
	.render = sampler_render, .status = sampler_status,
};
PANE_REGISTER(pane_sampler);
