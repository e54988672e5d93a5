/*
 * json.h — a small JSON reader for the front end: `ivx sweep` reads the
 * JSON its jobs' commands write (cpistack, run, refstack --json) and the
 * JSON lines of a sweep's results.
 *
 * json_parse builds a read-only tree of the whole text in one allocation
 * set; values are reached from the root with json_get (an object's member
 * by key) and json_at / json_key_at (by position, in the text's order).
 * Numbers keep the text they were written as (json_raw), so a table can
 * show a count exactly as the simulator printed it.
 */
#ifndef IVX_JSON_H
#define IVX_JSON_H

#include <stddef.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json;       /* a parsed document (owns every value) */
struct json_val;   /* one value in it */

/* Parse text[0..len) as one JSON value (blanks around it allowed). NULL
 * with a message "offset N: what" in err on bad input or no memory. */
struct json *json_parse(const char *text, size_t len, char *err, size_t err_len);
void json_free(struct json *doc);   /* NULL is a no-op */

const struct json_val *json_root(const struct json *doc);
enum json_type json_type(const struct json_val *v);
/* Members of an object or elements of an array (0 for the others). */
size_t json_count(const struct json_val *v);
/* The i-th element or member value (NULL past the end). */
const struct json_val *json_at(const struct json_val *v, size_t i);
/* The i-th member's key of an object (NULL if v is not one). */
const char *json_key_at(const struct json_val *v, size_t i);
/* An object's member by key (the first of that name), NULL if none or if v
 * is NULL or not an object: lookups chain without checks in between. */
const struct json_val *json_get(const struct json_val *v, const char *key);
/* A number's value (0 for other types); a string's text (NULL otherwise);
 * a boolean's value. */
double json_number(const struct json_val *v);
const char *json_string(const struct json_val *v);
int json_bool(const struct json_val *v);
/* A number's text as written, NUL-terminated (NULL for other types). */
const char *json_raw(const struct json_val *v);

#endif
