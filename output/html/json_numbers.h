/*
 * json_numbers.h - integers and arrays of them in the report's JSON
 * document, written faster than fprintf for the millions of numbers of a
 * large profile.
 */
#ifndef STOKE_JSON_NUMBERS_H
#define STOKE_JSON_NUMBERS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

void write_u64(FILE *out, uint64_t v);
void write_i64(FILE *out, int64_t v);

/* [v[0],v[1],...] */
void write_i64_array(FILE *out, const int64_t *v, size_t n);

/* [v[0],...], or [map[v[0]],...] when map is given. */
void write_u32_array(FILE *out, const uint32_t *v, size_t n, const uint32_t *map);

#endif
