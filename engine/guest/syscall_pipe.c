/*
 * syscall_pipe.c — pipe2, and ppoll, for a guest that is one process (see
 * guest_internal.h).
 *
 * With nobody else to read or write, a pipe is a buffer the process fills
 * and drains itself: zsh makes one at start-up, and the self-pipe trick
 * writes a byte to read it back later. What Linux would do when nothing
 * can ever happen — a read of an empty pipe whose write end is open, a
 * blocking write to a full one — would block forever here, so it stops the
 * run with one line instead, as a futex wait does. Writing with no reader
 * is EPIPE; Linux would also send SIGPIPE, and ivx delivers no signals.
 *
 * ppoll answers from the descriptors' state at once: files, standard
 * streams and devices are always ready (as Linux says of regular files;
 * /dev/random is never writable, as Linux's random_poll says), a pipe's
 * ends as its buffer and open ends say. Nothing can become ready later, so
 * a call with nothing ready returns 0 if it has a timeout (simulated time
 * does not jump, as for nanosleep) and stops the run if it has none.
 */
#include <errno.h>
#include <string.h>
#include "base/alloc.h"
#include "guest_internal.h"

#define G_O_NONBLOCK 04000
#define G_O_CLOEXEC  02000000
#define G_O_DIRECT   040000

static struct guest_pipe *pipe_of(struct guest *g, const struct guest_fd *f)
{
	return &g->pipes[f->file];
}

int64_t pipe_create(struct guest *g, uint64_t fds_addr, uint64_t flags)
{
	if (flags & ~(uint64_t)(G_O_NONBLOCK | G_O_CLOEXEC | G_O_DIRECT))
		return -EINVAL;
	if (flags & G_O_DIRECT)
		return -EINVAL;      /* packet mode: not modelled */
	int p = -1, rd = -1, wr = -1;
	for (int i = 0; i < GUEST_MAX_PIPES && p < 0; i++)
		if (!g->pipes[i].buf)
			p = i;
	for (int i = 0; i < GUEST_MAX_FDS && wr < 0; i++)
		if (g->fds[i].kind == GFD_FREE) {
			if (rd < 0)
				rd = i;
			else
				wr = i;
		}
	if (p < 0 || wr < 0)
		return p < 0 ? -ENFILE : -EMFILE;
	int32_t pair[2] = { rd, wr };
	if (mem_write_bytes(g->mem, fds_addr, pair, sizeof pair, 1, NULL) < 0)
		return -EFAULT;
	uint8_t *buf = ivx_malloc(GUEST_PIPE_BYTES);
	if (!buf)
		return -ENOMEM;
	g->pipes[p] = (struct guest_pipe){ .buf = buf, .readers = 1, .writers = 1 };
	uint32_t keep = (uint32_t)(flags & G_O_NONBLOCK);
	uint8_t cloexec = (flags & G_O_CLOEXEC) != 0;
	g->fds[rd] = (struct guest_fd){ .kind = GFD_PIPE_R, .cloexec = cloexec, .file = p, .flags = keep };
	g->fds[wr] = (struct guest_fd){ .kind = GFD_PIPE_W, .cloexec = cloexec, .file = p, .flags = keep | 1 };
	return 0;
}

int64_t would_block(struct guest *g, const char *what, struct ivx_err *err, int *stop)
{
	char where[200];
	guest_describe_pc(g, g->cpu.pc, where, sizeof where);
	g->state = GUEST_STOPPED;
	*stop = 1;
	return ivx_error(err, IVX_EGUEST, "%s would block forever (one process) at %s", what, where);
}

int64_t pipe_read(struct guest *g, struct guest_fd *f, uint8_t *host, uint64_t buf, uint64_t len,
                  struct ivx_err *err, int *stop)
{
	if (f->kind != GFD_PIPE_R)
		return -EBADF;
	struct guest_pipe *p = pipe_of(g, f);
	if (len == 0)
		return 0;
	if (p->len == 0) {
		if (p->writers == 0)
			return 0;                     /* end of file */
		if (f->flags & G_O_NONBLOCK)
			return -EAGAIN;
		return would_block(g, "a read of an empty pipe", err, stop);
	}
	uint64_t n = len < p->len ? len : p->len, done = 0;
	while (done < n) {
		uint32_t run = GUEST_PIPE_BYTES - p->head;
		if (run > n - done)
			run = (uint32_t)(n - done);
		uint32_t put = (uint32_t)xfer_put_some(g, host, buf + done, p->buf + p->head, run);
		p->head = (p->head + put) % GUEST_PIPE_BYTES;
		p->len -= put;
		done += put;
		if (put < run)
			break;                        /* a fault: the rest stays in the pipe */
	}
	return done ? (int64_t)done : -EFAULT;
}

int64_t pipe_write(struct guest *g, struct guest_fd *f, const uint8_t *host, uint64_t buf, uint64_t len,
                   struct ivx_err *err, int *stop)
{
	if (f->kind != GFD_PIPE_W)
		return -EBADF;
	struct guest_pipe *p = pipe_of(g, f);
	if (p->readers == 0)
		return -EPIPE;
	if (len == 0)
		return 0;
	uint64_t room = GUEST_PIPE_BYTES - p->len;
	if (room < len) {
		if (!(f->flags & G_O_NONBLOCK))
			return would_block(g, "a write to a full pipe", err, stop);
		if (len <= 4096 || room == 0)     /* up to PIPE_BUF: all at once or nothing */
			return -EAGAIN;
	}
	uint64_t n = len < room ? len : room, done = 0;
	while (done < n) {
		uint32_t tail = (p->head + p->len) % GUEST_PIPE_BYTES;
		uint32_t run = GUEST_PIPE_BYTES - tail;
		if (run > n - done)
			run = (uint32_t)(n - done);
		if (xfer_get(g, host, buf + done, p->buf + tail, run) < 0)
			break;
		p->len += run;
		done += run;
	}
	return done ? (int64_t)done : -EFAULT;
}

void fd_retain(struct guest *g, const struct guest_fd *f)
{
	if (f->kind == GFD_PIPE_R)
		pipe_of(g, f)->readers++;
	else if (f->kind == GFD_PIPE_W)
		pipe_of(g, f)->writers++;
}

void fd_release(struct guest *g, struct guest_fd *f)
{
	if (GFD_IS_PIPE(f)) {
		struct guest_pipe *p = pipe_of(g, f);
		if (f->kind == GFD_PIPE_R)
			p->readers--;
		else
			p->writers--;
		if (p->readers == 0 && p->writers == 0) {
			ivx_free(p->buf);
			*p = (struct guest_pipe){ 0 };
		}
	}
	f->kind = GFD_FREE;
}

int pipes_copy_buffers(const struct guest *src, uint8_t *bufs[GUEST_MAX_PIPES])
{
	for (int i = 0; i < GUEST_MAX_PIPES; i++) {
		bufs[i] = NULL;
		if (!src->pipes[i].buf)
			continue;
		bufs[i] = ivx_malloc(GUEST_PIPE_BYTES);
		if (!bufs[i]) {
			while (i-- > 0)
				ivx_free(bufs[i]);
			return -1;
		}
		memcpy(bufs[i], src->pipes[i].buf, GUEST_PIPE_BYTES);
	}
	return 0;
}

void pipes_free(struct guest *g)
{
	for (int i = 0; i < GUEST_MAX_PIPES; i++) {
		ivx_free(g->pipes[i].buf);
		g->pipes[i].buf = NULL;
	}
}

uint16_t poll_events(struct guest *g, int32_t fd, uint16_t asked)
{
	if (fd < 0)
		return 0;                         /* ignored, as Linux does */
	if (fd >= GUEST_MAX_FDS || g->fds[fd].kind == GFD_FREE)
		return G_POLLNVAL;
	const struct guest_fd *f = &g->fds[fd];
	uint16_t ready;
	if (f->kind == GFD_PIPE_R) {
		const struct guest_pipe *p = pipe_of(g, f);
		ready = (p->len ? G_POLLIN | G_POLLRDNORM : 0) | (p->writers ? 0 : G_POLLHUP);
	} else if (f->kind == GFD_PIPE_W) {
		const struct guest_pipe *p = pipe_of(g, f);
		ready = (p->len < GUEST_PIPE_BYTES ? G_POLLOUT | G_POLLWRNORM : 0) | (p->readers ? 0 : G_POLLERR);
	} else if (f->kind == GFD_DEV && f->file == GDEV_RANDOM) {
		ready = G_POLLIN | G_POLLRDNORM;  /* Linux's random_poll once seeded (never writable) */
	} else {
		ready = G_POLLIN | G_POLLRDNORM | G_POLLOUT | G_POLLWRNORM;
	}
	return ready & (asked | G_POLLERR | G_POLLHUP | G_POLLNVAL);
}

int64_t sys_ppoll(struct guest *g, uint64_t fds_addr, uint64_t nfds, uint64_t timeout_addr,
                  struct ivx_err *err, int *stop)
{
	if (nfds > GUEST_MAX_FDS)
		return -EINVAL;                   /* beyond RLIMIT_NOFILE */
	int64_t ready = 0;
	for (uint64_t i = 0; i < nfds; i++) {
		struct { int32_t fd; uint16_t events, revents; } pfd;
		uint64_t at = fds_addr + 8 * i;
		if (mem_read_bytes(g->mem, at, &pfd, sizeof pfd, 1, NULL) < 0)
			return -EFAULT;
		pfd.revents = poll_events(g, pfd.fd, pfd.events);
		if (mem_write_bytes(g->mem, at + 6, &pfd.revents, 2, 1, NULL) < 0)
			return -EFAULT;
		ready += pfd.revents != 0;
	}
	if (ready || timeout_addr)
		return ready;
	return would_block(g, "a ppoll with nothing ready and no timeout", err, stop);
}
