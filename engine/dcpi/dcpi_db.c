/*
 * dcpi_db.c — profile files and the epoch directories (see dcpi_db.h).
 *
 * A profile file, all integers little-endian:
 *
 *   0   8  magic "IVXDCPI\0"
 *   8   4  version (2; 1 is read too: no kind 5)
 *   12  4  kind (1 samples, 2 truth, 3 wait, 4 taken, 5 culprit)
 *   16  4  event (enum dcpi_event)
 *   20  4  path length L (1..4096)
 *   24  8  runs      32 8 cycles     40 8 enabled_cycles
 *   48  8  period_events              56 8 total
 *   64  8  base      72 8 records N  80 8 payload bytes B
 *   88  L  image path
 *   88+L B records: N pairs of LEB128 varints (offset - previous offset,
 *          count), offsets strictly increasing, counts >= 1; kind 5:
 *          triples (offset delta, count, aux = culprit pc), (offset, aux)
 *          strictly increasing
 *   end 4  CRC-32 (IEEE 802.3) of every byte before it
 *
 * Deltas and varints keep a profile small: most records take 2-4 bytes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/alloc.h"
#include "base/file.h"
#include "dcpi.h"
#include "dcpi_db.h"

#define HDR 88
static const uint8_t magic[8] = { 'I', 'V', 'X', 'D', 'C', 'P', 'I', 0 };

/* ---- CRC-32 ----------------------------------------------------------------- */

static uint32_t crc32_ieee(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
	}
	return ~c;
}

/* ---- profiles in memory --------------------------------------------------- */

struct dcpi_profile *dcpi_profile_new(int kind, int event, const char *path, struct ivx_err *err)
{
	size_t len = strlen(path);
	if (!len || len > DCPI_DB_MAX_PATH) {
		ivx_error(err, IVX_EUSAGE, "profile: image path must be 1 to %d bytes", DCPI_DB_MAX_PATH);
		return NULL;
	}
	struct dcpi_profile *p = ivx_calloc(1, sizeof *p);
	if (p)
		p->path = ivx_strdup(path);
	if (!p || !p->path) {
		ivx_free(p);
		ivx_error(err, IVX_ESYS, "out of host memory (profile)");
		return NULL;
	}
	p->kind = kind;
	p->event = event;
	return p;
}

void dcpi_profile_free(struct dcpi_profile *p)
{
	if (!p)
		return;
	ivx_free(p->path);
	ivx_free(p->rec);
	ivx_free(p);
}

int dcpi_profile_add(struct dcpi_profile *p, uint64_t offset, uint64_t count, struct ivx_err *err)
{
	return dcpi_profile_add_aux(p, offset, 0, count, err);
}

int dcpi_profile_add_aux(struct dcpi_profile *p, uint64_t offset, uint64_t aux, uint64_t count, struct ivx_err *err)
{
	if (!count)
		return IVX_OK;
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 256;
		struct dcpi_rec *r = ivx_realloc(p->rec, cap * sizeof *r);
		if (!r)
			return ivx_error(err, IVX_ESYS, "out of host memory (profile records)");
		p->rec = r;
		p->cap = cap;
	}
	p->rec[p->n++] = (struct dcpi_rec){ offset, count, aux };
	p->total += count;
	return IVX_OK;
}

static int rec_cmp(const void *a, const void *b)
{
	const struct dcpi_rec *x = a, *y = b;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->aux < y->aux ? -1 : x->aux > y->aux;
}

void dcpi_profile_normalize(struct dcpi_profile *p)
{
	if (p->n > 1)
		qsort(p->rec, p->n, sizeof *p->rec, rec_cmp);
	size_t w = 0;
	for (size_t i = 0; i < p->n; i++) {
		if (w && p->rec[w - 1].offset == p->rec[i].offset && p->rec[w - 1].aux == p->rec[i].aux)
			p->rec[w - 1].count += p->rec[i].count;
		else
			p->rec[w++] = p->rec[i];
	}
	p->n = w;
}

int dcpi_profile_merge(struct dcpi_profile *dst, const struct dcpi_profile *src, struct ivx_err *err)
{
	if (dst->kind != src->kind || dst->event != src->event || dst->base != src->base)
		return ivx_error(err, IVX_EINPUT, "profiles of different kinds, events or bases cannot merge");
	for (size_t i = 0; i < src->n; i++)
		if (dcpi_profile_add_aux(dst, src->rec[i].offset, src->rec[i].aux, src->rec[i].count, err) < 0)
			return IVX_ESYS;
	dst->runs += src->runs;
	dst->cycles += src->cycles;
	dst->enabled_cycles += src->enabled_cycles;
	dst->period_events += src->period_events;
	dcpi_profile_normalize(dst);
	return IVX_OK;
}

/* ---- encoding ----------------------------------------------------------------- */

static void put32(uint8_t *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *b, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *b)
{
	uint32_t v = 0;
	for (int i = 0; i < 4; i++)
		v |= (uint32_t)b[i] << (8 * i);
	return v;
}

static uint64_t get64(const uint8_t *b)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v |= (uint64_t)b[i] << (8 * i);
	return v;
}

static size_t put_varint(uint8_t *b, uint64_t v)
{
	size_t n = 0;
	do {
		uint8_t byte = v & 0x7f;
		v >>= 7;
		b[n++] = byte | (v ? 0x80 : 0);
	} while (v);
	return n;
}

/* A varint at *p (< end): 0, or -1 if it runs off the end or past 64 bits. */
static int get_varint(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
	uint64_t v = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		if (*p >= end)
			return -1;
		uint8_t byte = *(*p)++;
		if (shift == 63 && byte > 1)
			return -1;
		v |= (uint64_t)(byte & 0x7f) << shift;
		if (!(byte & 0x80)) {
			*out = v;
			return 0;
		}
	}
	return -1;
}

int dcpi_profile_encode(const struct dcpi_profile *p, uint8_t **buf, size_t *len, struct ivx_err *err)
{
	size_t plen = strlen(p->path);
	size_t max = HDR + plen + p->n * 30 + 4;
	int with_aux = p->kind == DCPI_KIND_CULPRIT;
	uint8_t *b = ivx_calloc(1, max);
	if (!b)
		return ivx_error(err, IVX_ESYS, "out of host memory (profile encoding)");
	uint8_t *q = b + HDR + plen;
	uint64_t prev = 0, total = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct dcpi_rec *r = &p->rec[i];
		int ordered = !i || r->offset > prev ||
			      (with_aux && r->offset == prev && r->aux > p->rec[i - 1].aux);
		if (!ordered || !r->count || (!with_aux && r->aux)) {
			ivx_free(b);
			return ivx_error(err, IVX_EUSAGE, "profile: records must be normalized before encoding");
		}
		q += put_varint(q, r->offset - prev);
		q += put_varint(q, r->count);
		if (with_aux)
			q += put_varint(q, r->aux);
		prev = r->offset;
		total += p->rec[i].count;
	}
	size_t payload = (size_t)(q - (b + HDR + plen));
	memcpy(b, magic, 8);
	put32(b + 8, DCPI_DB_VERSION);
	put32(b + 12, (uint32_t)p->kind);
	put32(b + 16, (uint32_t)p->event);
	put32(b + 20, (uint32_t)plen);
	put64(b + 24, p->runs);
	put64(b + 32, p->cycles);
	put64(b + 40, p->enabled_cycles);
	put64(b + 48, p->period_events);
	put64(b + 56, total);
	put64(b + 64, p->base);
	put64(b + 72, p->n);
	put64(b + 80, payload);
	memcpy(b + HDR, p->path, plen);
	put32(q, crc32_ieee(b, (size_t)(q - b)));
	*buf = b;
	*len = (size_t)(q - b) + 4;
	return IVX_OK;
}

/* Totals no run can make, which would overflow the sums readers take
 * over files (shares, merges): refused as corrupt. A run of 2^56
 * cycles would take years to simulate; a sample needs an elapsed period,
 * so samples come with period events and enabled cycles, and at most one
 * per cycle; no event happens more than 64 times a cycle. */
static int implausible(const struct dcpi_profile *p, uint64_t total, struct ivx_err *err)
{
	const uint64_t max_cycles = 1ull << 56;
	if (p->cycles > max_cycles || p->enabled_cycles > p->cycles)
		return ivx_error(err, IVX_EINPUT, "corrupt header (%llu cycles, %llu enabled)",
				 (unsigned long long)p->cycles, (unsigned long long)p->enabled_cycles);
	if (p->kind == DCPI_KIND_SAMPLES && total && (!p->period_events || !p->enabled_cycles))
		return ivx_error(err, IVX_EINPUT, "corrupt header (%llu samples, but %llu period events in %llu enabled cycles)",
				 (unsigned long long)total, (unsigned long long)p->period_events,
				 (unsigned long long)p->enabled_cycles);
	uint64_t most = p->kind == DCPI_KIND_SAMPLES ? p->cycles : 64 * p->cycles;
	if (total > most)
		return ivx_error(err, IVX_EINPUT, "corrupt records (counts add up to %llu, more than %llu cycles allow)",
				 (unsigned long long)total, (unsigned long long)p->cycles);
	return IVX_OK;
}

int dcpi_profile_decode(const void *buf, size_t len, struct dcpi_profile **out, struct ivx_err *err)
{
	const uint8_t *b = buf;
	*out = NULL;
	if (len < 8 || memcmp(b, magic, 8))
		return ivx_error(err, IVX_EINPUT, "not an ivx profile (no IVXDCPI header)");
	if (len < HDR + 4)
		return ivx_error(err, IVX_EINPUT, "truncated (%zu bytes, the header alone takes %d)", len, HDR + 4);
	uint32_t version = get32(b + 8);
	if (version < 1 || version > DCPI_DB_VERSION)
		return ivx_error(err, IVX_EINPUT, "profile version %u, this ivx reads versions 1 to %d", version,
				 DCPI_DB_VERSION);
	uint32_t kind = get32(b + 12), event = get32(b + 16), plen = get32(b + 20);
	uint64_t nrec = get64(b + 72), payload = get64(b + 80);
	if (!plen || plen > DCPI_DB_MAX_PATH)
		return ivx_error(err, IVX_EINPUT, "corrupt header (image path length %u)", plen);
	if (payload > len || (uint64_t)HDR + plen + payload + 4 > len)
		return ivx_error(err, IVX_EINPUT, "truncated (%zu bytes, the header says %llu)", len,
				 (unsigned long long)(HDR + plen + payload + 4));
	if ((uint64_t)HDR + plen + payload + 4 < len)
		return ivx_error(err, IVX_EINPUT, "corrupt (%llu bytes after the checksum)",
				 (unsigned long long)(len - (HDR + plen + payload + 4)));
	size_t body = HDR + plen + (size_t)payload;
	if (get32(b + body) != crc32_ieee(b, body))
		return ivx_error(err, IVX_EINPUT, "checksum mismatch (the file is corrupt)");
	if (!((kind == DCPI_KIND_SAMPLES || kind == DCPI_KIND_TRUTH) ? event < DCPI_EVENT_COUNT :
	      kind == DCPI_KIND_WAIT || kind == DCPI_KIND_CULPRIT ? event < ISSUE_WAIT_COUNT :
	      kind == DCPI_KIND_TAKEN && event == 0))
		return ivx_error(err, IVX_EINPUT, "corrupt header (kind %u, event %u)", kind, event);
	int with_aux = kind == DCPI_KIND_CULPRIT;
	if (with_aux && version < 2)
		return ivx_error(err, IVX_EINPUT, "corrupt header (culprit records in a version %u file)", version);
	if (nrec > payload / (with_aux ? 3 : 2))
		return ivx_error(err, IVX_EINPUT, "corrupt header (%llu records in %llu bytes)",
				 (unsigned long long)nrec, (unsigned long long)payload);
	if (memchr(b + HDR, 0, plen))
		return ivx_error(err, IVX_EINPUT, "corrupt header (NUL in the image path)");
	char path[DCPI_DB_MAX_PATH + 1];
	memcpy(path, b + HDR, plen);
	path[plen] = 0;
	struct dcpi_profile *p = dcpi_profile_new((int)kind, (int)event, path, err);
	if (!p)
		return err ? err->code : IVX_ESYS;
	p->runs = get64(b + 24);
	p->cycles = get64(b + 32);
	p->enabled_cycles = get64(b + 40);
	p->period_events = get64(b + 48);
	p->base = get64(b + 64);
	uint64_t total = get64(b + 56);
	if (nrec) {
		p->rec = ivx_malloc((size_t)nrec * sizeof *p->rec);
		if (!p->rec) {
			dcpi_profile_free(p);
			return ivx_error(err, IVX_ESYS, "out of host memory (profile records)");
		}
		p->cap = (size_t)nrec;
	}
	const uint8_t *q = b + HDR + plen, *end = b + body;
	uint64_t off = 0, sum = 0, prev_aux = 0;
	for (uint64_t i = 0; i < nrec; i++) {
		uint64_t delta, count, aux = 0;
		if (get_varint(&q, end, &delta) < 0 || get_varint(&q, end, &count) < 0 ||
		    (with_aux && get_varint(&q, end, &aux) < 0)) {
			dcpi_profile_free(p);
			return ivx_error(err, IVX_EINPUT, "corrupt records (record %llu runs off the end)",
					 (unsigned long long)i);
		}
		int same_pc_ok = with_aux && aux > prev_aux;
		if ((i && !delta && !same_pc_ok) || !count || off + delta < off || sum + count < sum) {
			dcpi_profile_free(p);
			return ivx_error(err, IVX_EINPUT, "corrupt records (record %llu out of order or zero)",
					 (unsigned long long)i);
		}
		off += delta;
		sum += count;
		prev_aux = aux;
		p->rec[p->n++] = (struct dcpi_rec){ off, count, aux };
	}
	if (q != end) {
		dcpi_profile_free(p);
		return ivx_error(err, IVX_EINPUT, "corrupt records (%llu trailing bytes after the %llu records)",
				 (unsigned long long)(end - q), (unsigned long long)nrec);
	}
	if (sum != total) {
		dcpi_profile_free(p);
		return ivx_error(err, IVX_EINPUT, "corrupt records (counts add up to %llu, the header says %llu)",
				 (unsigned long long)sum, (unsigned long long)total);
	}
	if (implausible(p, total, err) < 0) {
		dcpi_profile_free(p);
		return IVX_EINPUT;
	}
	p->total = total;
	*out = p;
	return IVX_OK;
}

/* ---- files ---------------------------------------------------------------------- */

#define DCPI_DB_MAX_FILE (256u << 20)

int dcpi_profile_read(const char *file, struct dcpi_profile **out, struct ivx_err *err)
{
	*out = NULL;
	FILE *f = ivx_fopen_input(file, err);
	if (!f)
		return IVX_EINPUT;
	struct stat st;
	if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > DCPI_DB_MAX_FILE) {
		fclose(f);
		return ivx_error(err, IVX_EINPUT, "%s: not a regular file of at most 256 MB", file);
	}
	size_t len = (size_t)st.st_size;
	uint8_t *buf = ivx_malloc(len ? len : 1);
	if (!buf) {
		fclose(f);
		return ivx_error(err, IVX_ESYS, "%s: out of host memory", file);
	}
	size_t got = fread(buf, 1, len, f);
	fclose(f);
	if (got != len) {
		ivx_free(buf);
		return ivx_error(err, IVX_EINPUT, "%s: read error", file);
	}
	struct ivx_err e = { 0 };
	int rc = dcpi_profile_decode(buf, len, out, &e);
	ivx_free(buf);
	if (rc < 0)
		return ivx_error(err, rc, "%s: %s", file, e.msg);
	return IVX_OK;
}

int dcpi_profile_write(const char *file, const struct dcpi_profile *p, struct ivx_err *err)
{
	uint8_t *buf;
	size_t len;
	if (dcpi_profile_encode(p, &buf, &len, err) < 0)
		return err ? err->code : IVX_ESYS;
	/* the temporary file beside the target, so rename() stays in one
	 * file system; a leading dot keeps readers from listing it */
	char tmp[4200];
	const char *slash = strrchr(file, '/');
	int dl = slash ? (int)(slash - file + 1) : 0;
	if (snprintf(tmp, sizeof tmp, "%.*s.%s.tmp%ld", dl, file, file + dl, (long)getpid()) >= (int)sizeof tmp) {
		ivx_free(buf);
		return ivx_error(err, IVX_EUSAGE, "%s: path too long", file);
	}
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		ivx_free(buf);
		return ivx_error(err, IVX_ESYS, "%s: %s", tmp, strerror(errno));
	}
	size_t done = 0;
	while (done < len) {
		ssize_t w = write(fd, buf + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	int bad = done != len || fsync(fd) < 0;
	int saved = errno;
	bad |= close(fd) < 0;
	ivx_free(buf);
	if (bad || rename(tmp, file) < 0) {
		if (!bad)
			saved = errno;
		unlink(tmp);
		return ivx_error(err, IVX_ESYS, "%s: %s", file, strerror(saved ? saved : EIO));
	}
	return IVX_OK;
}

/* ---- the database directory ---------------------------------------------------- */

static int epoch_number(const char *name)
{
	if (strncmp(name, "epoch-", 6) || strlen(name) != 10)
		return -1;
	int n = 0;
	for (int i = 6; i < 10; i++) {
		if (name[i] < '0' || name[i] > '9')
			return -1;
		n = n * 10 + (name[i] - '0');
	}
	return n;
}

int dcpi_db_epoch_path(char *out, size_t n, const char *db_dir, int epoch)
{
	size_t len = strlen(db_dir);
	while (len > 1 && db_dir[len - 1] == '/')
		len--;
	const char *sep = len == 1 && db_dir[0] == '/' ? "" : "/";   /* (the root: /epoch-0001) */
	return snprintf(out, n, "%.*s%sepoch-%04d", (int)len, db_dir, sep, epoch);
}

int dcpi_db_epoch(const char *db_dir, int create, int new_epoch, char *out, size_t n, struct ivx_err *err)
{
	if (create && mkdir(db_dir, 0755) < 0 && errno != EEXIST)
		return ivx_error(err, IVX_ESYS, "%s: %s", db_dir, strerror(errno));
	DIR *d = opendir(db_dir);
	if (!d)
		return ivx_error(err, IVX_EINPUT, "%s: %s", db_dir, strerror(errno));
	int newest = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		int k = epoch_number(de->d_name);
		if (k > newest)
			newest = k;
	}
	closedir(d);
	if (!newest && !create)
		return ivx_error(err, IVX_EINPUT, "%s: no epoch in this database (ivx profile --db %s makes one)",
				 db_dir, db_dir);
	int want = !newest || new_epoch ? newest + 1 : newest;
	if (want > 9999)
		return ivx_error(err, IVX_EUSAGE, "%s: all 9999 epochs are used", db_dir);
	if (dcpi_db_epoch_path(out, n, db_dir, want) >= (int)n)
		return ivx_error(err, IVX_EUSAGE, "%s: path too long", db_dir);
	if (want != newest && mkdir(out, 0755) < 0 && errno != EEXIST)
		return ivx_error(err, IVX_ESYS, "%s: %s", out, strerror(errno));
	return IVX_OK;
}

int dcpi_db_file_name(const struct dcpi_profile *p, char *out, size_t n)
{
	const char *base = strrchr(p->path, '/');
	base = base ? base + 1 : p->path;
	/* FNV-1a of the whole path: two images with one basename stay apart */
	uint32_t h = 2166136261u;
	for (const char *s = p->path; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	char clean[64];
	size_t k = 0;
	for (const char *s = base; *s && k < sizeof clean - 1; s++) {
		int ok = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
			 *s == '_' || *s == '-' || (*s == '.' && k);
		clean[k++] = ok ? *s : '_';
	}
	clean[k] = 0;
	if (!k)
		strcpy(clean, "image");
	if (p->kind == DCPI_KIND_WAIT || p->kind == DCPI_KIND_TAKEN || p->kind == DCPI_KIND_CULPRIT)
		return snprintf(out, n, "%s-%08x.%s%s.truth", clean, h,
				p->kind == DCPI_KIND_WAIT ? "wait-" : p->kind == DCPI_KIND_CULPRIT ? "culprit-" : "taken",
				p->kind == DCPI_KIND_TAKEN ? "" : issue_wait_name(p->event)) < (int)n ? 0 : -1;
	return snprintf(out, n, "%s-%08x.%s.%s", clean, h, dcpi_event_name(p->event),
			p->kind == DCPI_KIND_TRUTH ? "truth" : "samples") < (int)n ? 0 : -1;
}

int dcpi_db_store(const char *epoch_dir, const struct dcpi_profile *p, struct ivx_err *err)
{
	char name[128], file[4400];
	if (dcpi_db_file_name(p, name, sizeof name) < 0 ||
	    snprintf(file, sizeof file, "%s/%s", epoch_dir, name) >= (int)sizeof file)
		return ivx_error(err, IVX_EUSAGE, "%s: path too long", epoch_dir);
	struct dcpi_profile *old = NULL;
	if (access(file, F_OK) == 0) {
		if (dcpi_profile_read(file, &old, err) < 0)
			return err ? err->code : IVX_EINPUT;
		if (strcmp(old->path, p->path)) {
			dcpi_profile_free(old);
			return ivx_error(err, IVX_EINPUT, "%s: holds another image's profile", file);
		}
		if (dcpi_profile_merge(old, p, err) < 0) {
			dcpi_profile_free(old);
			return ivx_error(err, IVX_EINPUT, "%s: cannot merge (different base address)", file);
		}
	}
	int rc = dcpi_profile_write(file, old ? old : p, err);
	dcpi_profile_free(old);
	return rc;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_profile_name(const char *s)
{
	size_t n = strlen(s);
	if (s[0] == '.')
		return 0;
	return (n > 8 && !strcmp(s + n - 8, ".samples")) || (n > 6 && !strcmp(s + n - 6, ".truth"));
}

int dcpi_db_load(const char *epoch_dir, struct dcpi_profile ***out, size_t *n, dcpi_db_error_fn on_error,
		 void *ctx, struct ivx_err *err)
{
	*out = NULL;
	*n = 0;
	DIR *d = opendir(epoch_dir);
	if (!d)
		return ivx_error(err, IVX_EINPUT, "%s: %s", epoch_dir, strerror(errno));
	char **names = NULL;
	size_t nn = 0, cap = 0;
	struct dirent *de;
	int rc = IVX_OK;
	while ((de = readdir(d))) {
		if (!is_profile_name(de->d_name))
			continue;
		if (nn == cap) {
			cap = cap ? cap * 2 : 16;
			char **t = ivx_realloc(names, cap * sizeof *t);
			if (!t) {
				rc = ivx_error(err, IVX_ESYS, "out of host memory");
				break;
			}
			names = t;
		}
		if (!(names[nn] = ivx_strdup(de->d_name))) {
			rc = ivx_error(err, IVX_ESYS, "out of host memory");
			break;
		}
		nn++;
	}
	closedir(d);
	struct dcpi_profile **list = rc == IVX_OK && nn ? ivx_calloc(nn, sizeof *list) : NULL;
	if (nn && !list && rc == IVX_OK)
		rc = ivx_error(err, IVX_ESYS, "out of host memory");
	if (rc == IVX_OK) {
		if (nn)   /* an empty epoch: names is NULL, which qsort must not get */
			qsort(names, nn, sizeof *names, name_cmp);
		for (size_t i = 0; i < nn; i++) {
			char file[4400];
			struct ivx_err e = { 0 };
			snprintf(file, sizeof file, "%s/%s", epoch_dir, names[i]);
			if (dcpi_profile_read(file, &list[*n], &e) < 0) {
				if (on_error)
					on_error(ctx, e.msg);
				continue;
			}
			(*n)++;
		}
		*out = list;
	} else {
		ivx_free(list);
	}
	for (size_t i = 0; i < nn; i++)
		ivx_free(names[i]);
	ivx_free(names);
	return rc;
}

void dcpi_db_free_list(struct dcpi_profile **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dcpi_profile_free(list[i]);
	ivx_free(list);
}

/* ---- image identities ------------------------------------------------------- */

int dcpi_image_id(const char *path, struct dcpi_image_id *id, struct ivx_err *err)
{
	FILE *f = ivx_fopen_input(path, err);
	if (!f)
		return IVX_EINPUT;
	uint64_t h = 14695981039346656037ull, n = 0;
	uint8_t buf[65536];
	size_t got;
	while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
		for (size_t i = 0; i < got; i++)
			h = (h ^ buf[i]) * 1099511628211ull;
		n += got;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad)
		return ivx_error(err, IVX_EINPUT, "%s: read error", path);
	*id = (struct dcpi_image_id){ n, h };
	return IVX_OK;
}

static void images_file(const char *epoch_dir, char *out, size_t n)
{
	snprintf(out, n, "%s/images", epoch_dir);
}

/* One line of EPOCH/images: 1 and its fields, 0 for a line not of that
 * form (skipped: a reader of a newer layout keeps going). */
static int parse_image_line(char *line, char **path, struct dcpi_image_id *id)
{
	unsigned long long size, hash;
	int at = 0;
	line[strcspn(line, "\n")] = 0;
	if (sscanf(line, "%llu %16llx %n", &size, &hash, &at) != 2 || !at || !line[at])
		return 0;
	*path = line + at;
	*id = (struct dcpi_image_id){ size, hash };
	return 1;
}

int dcpi_db_image_each(const char *epoch_dir, void (*fn)(void *ctx, const char *path, const struct dcpi_image_id *id),
		       void *ctx, struct ivx_err *err)
{
	char file[4400];
	images_file(epoch_dir, file, sizeof file);
	FILE *f = fopen(file, "r");
	if (!f)
		return errno == ENOENT ? IVX_OK : ivx_error(err, IVX_EINPUT, "%s: %s", file, strerror(errno));
	char line[DCPI_DB_MAX_PATH + 64];
	while (fgets(line, sizeof line, f)) {
		char *path;
		struct dcpi_image_id id;
		if (parse_image_line(line, &path, &id))
			fn(ctx, path, &id);
	}
	fclose(f);
	return IVX_OK;
}

struct image_find {
	const char *path;
	struct dcpi_image_id *id;
	int found;
};

static void image_find_one(void *ctx, const char *path, const struct dcpi_image_id *id)
{
	struct image_find *q = ctx;
	if (!strcmp(path, q->path)) {
		*q->id = *id;
		q->found = 1;
	}
}

int dcpi_db_image_lookup(const char *epoch_dir, const char *path, struct dcpi_image_id *id, int *has_file,
			 struct ivx_err *err)
{
	char file[4400];
	images_file(epoch_dir, file, sizeof file);
	*has_file = access(file, F_OK) == 0;
	struct image_find q = { path, id, 0 };
	if (*has_file && dcpi_db_image_each(epoch_dir, image_find_one, &q, err) < 0)
		return err ? err->code : IVX_EINPUT;
	return q.found;
}

int dcpi_db_image_record(const char *epoch_dir, const char *path, const struct dcpi_image_id *id,
			 struct ivx_err *err)
{
	if (strchr(path, '\n'))   /* (a line per image: such a path cannot be told apart) */
		return IVX_OK;
	char file[4400], tmp[4500];
	images_file(epoch_dir, file, sizeof file);
	snprintf(tmp, sizeof tmp, "%s/.images.tmp%ld", epoch_dir, (long)getpid());
	FILE *out = fopen(tmp, "w");
	if (!out)
		return ivx_error(err, IVX_ESYS, "%s: %s", tmp, strerror(errno));
	FILE *in = fopen(file, "r");
	char line[DCPI_DB_MAX_PATH + 64];
	while (in && fgets(line, sizeof line, in)) {
		char copy[sizeof line], *p;
		struct dcpi_image_id old;
		memcpy(copy, line, sizeof line);
		if (parse_image_line(copy, &p, &old) && !strcmp(p, path))
			continue;   /* (replaced below) */
		fputs(line, out);
	}
	if (in)
		fclose(in);
	fprintf(out, "%llu %016llx %s\n", (unsigned long long)id->size, (unsigned long long)id->hash, path);
	int bad = ferror(out);
	if (fclose(out) != 0 || bad || rename(tmp, file) != 0) {
		int e = errno;
		unlink(tmp);
		return ivx_error(err, IVX_ESYS, "%s: %s", file, strerror(e ? e : EIO));
	}
	return IVX_OK;
}

int dcpi_db_epoch_empty(const char *epoch_dir, struct ivx_err *err)
{
	DIR *d = opendir(epoch_dir);
	if (!d)
		return ivx_error(err, IVX_EINPUT, "%s: %s", epoch_dir, strerror(errno));
	int empty = 1;
	struct dirent *de;
	while (empty && (de = readdir(d)))
		empty = !is_profile_name(de->d_name);
	closedir(d);
	return empty;
}
