/*
 * records.c - the record builder (see records.h). A record's payload is
 * built in a fixed scratch area, then appended with its type and length.
 * Fields that do not fit the payload are cut, never overflow it.
 */
#include "records.h"

#include <stdlib.h>
#include <string.h>

#include "stoke_format.h"

void records_begin(struct records *r, int type)
{
    r->type = type;
    r->payload_len = 0;
}

/* Room left in the current payload, in bytes. */
static size_t room(const struct records *r)
{
    return RECORD_MAX_PAYLOAD - r->payload_len;
}

void records_u(struct records *r, uint64_t v)
{
    if (room(r) >= 10)
        r->payload_len += stoke_put_u(r->payload + r->payload_len, v);
}

void records_s(struct records *r, int64_t v)
{
    if (room(r) >= 10)
        r->payload_len += stoke_put_s(r->payload + r->payload_len, v);
}

void records_bytes(struct records *r, const void *p, size_t n)
{
    if (room(r) < 10)
        return;
    if (n > room(r) - 10)
        n = room(r) - 10;
    records_u(r, n);
    memcpy(r->payload + r->payload_len, p, n);
    r->payload_len += n;
}

void records_str(struct records *r, const char *s)
{
    records_bytes(r, s, strlen(s));
}

static int reserve(struct records *r, size_t more)
{
    if (r->len + more <= r->cap)
        return 0;
    size_t cap = r->cap ? r->cap * 2 : 65536;
    while (cap < r->len + more)
        cap *= 2;
    uint8_t *grown = realloc(r->data, cap);
    if (!grown)
        return -1;
    r->data = grown;
    r->cap = cap;
    return 0;
}

void records_end(struct records *r)
{
    if (reserve(r, 1 + 10 + r->payload_len)) {
        r->failed = 1;
        return;
    }
    r->data[r->len++] = (uint8_t)r->type;
    r->len += stoke_put_u(r->data + r->len, r->payload_len);
    memcpy(r->data + r->len, r->payload, r->payload_len);
    r->len += r->payload_len;
}

void records_clear(struct records *r)
{
    r->len = 0;
}

void records_free(struct records *r)
{
    free(r->data);
    r->data = NULL;
    r->len = r->cap = 0;
}
