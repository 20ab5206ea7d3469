/*
 * json_numbers.c - integers of the report's JSON document; see
 * json_numbers.h. Never writes anything but digits, '-', ',' and brackets.
 */
#include "json_numbers.h"

void write_u64(FILE *out, uint64_t v)
{
    char buf[24];
    char *p = buf + sizeof(buf);
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), out);
}

void write_i64(FILE *out, int64_t v)
{
    if (v < 0) {
        fputc('-', out);
        write_u64(out, (uint64_t)0 - (uint64_t)v);
    } else {
        write_u64(out, (uint64_t)v);
    }
}

void write_i64_array(FILE *out, const int64_t *v, size_t n)
{
    fputc('[', out);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(',', out);
        write_i64(out, v[i]);
    }
    fputc(']', out);
}

void write_u32_array(FILE *out, const uint32_t *v, size_t n, const uint32_t *map)
{
    fputc('[', out);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(',', out);
        write_u64(out, map ? map[v[i]] : v[i]);
    }
    fputc(']', out);
}
