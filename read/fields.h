/*
 * fields.h - reads the fields of one record payload in order, with a sticky
 * error flag, so a decoder reads all its fields and checks once at the end.
 *
 * Never: reads past the payload (a short payload sets bad and yields zeros).
 */
#ifndef STOKE_FIELDS_H
#define STOKE_FIELDS_H

#include <stddef.h>
#include <stdint.h>
#include "stoke_format.h"

struct stoke_fields {
    const uint8_t *p, *end;
    int bad;
};

static inline struct stoke_fields stoke_fields_of(const uint8_t *payload, size_t len)
{
    return (struct stoke_fields){payload, payload + len, 0};
}

static inline uint64_t stoke_field_u(struct stoke_fields *f)
{
    uint64_t v = 0;
    if (!f->bad && stoke_get_u(&f->p, f->end, &v))
        f->bad = 1;
    return f->bad ? 0 : v;
}

static inline int64_t stoke_field_s(struct stoke_fields *f)
{
    int64_t v = 0;
    if (!f->bad && stoke_get_s(&f->p, f->end, &v))
        f->bad = 1;
    return f->bad ? 0 : v;
}

/* A "str" or "bytes" field: sets *len and returns a pointer into the
 * payload (not NUL-terminated). */
static inline const uint8_t *stoke_field_bytes(struct stoke_fields *f, size_t *len)
{
    uint64_t n = stoke_field_u(f);
    if (f->bad || n > (uint64_t)(f->end - f->p)) {
        f->bad = 1;
        *len = 0;
        return f->p;
    }
    const uint8_t *bytes = f->p;
    f->p += n;
    *len = (size_t)n;
    return bytes;
}

/* Whether the payload holds more than was read: a field a later minor
 * version appended. */
static inline int stoke_field_more(const struct stoke_fields *f)
{
    return !f->bad && f->p < f->end;
}

#endif
