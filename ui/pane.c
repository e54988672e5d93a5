/*
 * pane.c — the pane base beside the class (pane.h): scrolling a pane
 * whose content is a short list of rows (pane_render_scrolled). The rows
 * are drawn into a buffer of their own and the window the pane shows is
 * copied from it; unscrolled, they are drawn straight into the pane, with
 * no buffer.
 */
#include "pane.h"
#include "textbuf.h"

void pane_render_scrolled(struct pane *p, struct explorer *x, struct textbuf *tb, int rows,
			  int (*draw)(struct pane *p, struct explorer *x, struct textbuf *all))
{
	if (p->scroll <= 0) {
		p->scroll = 0;
		draw(p, x, tb);
		return;
	}
	struct textbuf *all = tb_new(tb->w, rows > tb->h ? rows : tb->h, tb->ascii);
	if (!all) {
		p->scroll = 0;
		draw(p, x, tb);
		return;
	}
	int used = draw(p, x, all);
	int most = used > tb->h ? used - tb->h : 0;
	if (p->scroll > most)
		p->scroll = most;
	tb_blit(tb, 0, -p->scroll, all);
	tb_free(all);
}
