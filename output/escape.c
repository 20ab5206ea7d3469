/*
 * escape.c - makes names safe text for the report page.
 *
 * Owns: JSON string escaping, HTML text escaping, UTF-8 validation and
 * common prefixes.
 * Never: lets a byte through that could end the enclosing element or be
 * parsed as markup.
 */
#include "escape.h"

#include <string.h>

#define REPLACEMENT_UTF8 "\xEF\xBF\xBD" /* U+FFFD */

/* Length of the well-formed UTF-8 sequence at s (1..4), or 0 if s does not
 * start one (RFC 3629: no overlongs, no surrogates, nothing past U+10FFFF). */
static size_t utf8_sequence_length(const unsigned char *s)
{
    unsigned char c = s[0];
    unsigned char lo = 0x80, hi = 0xBF;
    size_t len;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4;
    else
        return 0;
    if (c == 0xE0)
        lo = 0xA0;
    else if (c == 0xED)
        hi = 0x9F;
    else if (c == 0xF0)
        lo = 0x90;
    else if (c == 0xF4)
        hi = 0x8F;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return len;
}

size_t utf8_common_prefix(const char *a, const char *b, size_t *units)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    size_t at = 0;
    *units = 0;
    while (x[at] && x[at] == y[at]) {
        size_t len = utf8_sequence_length(x + at);
        if (len == 0 || memcmp(x + at, y + at, len) != 0)
            break;
        at += len;
        *units += len == 4 ? 2 : 1; /* beyond U+FFFF: a surrogate pair */
    }
    return at;
}

/* The JSON escape for an ASCII byte, or NULL if it is written as is. */
static const char *json_escape_of(unsigned char c, char buf[8])
{
    switch (c) {
    case '"': return "\\\"";
    case '\\': return "\\\\";
    case '\n': return "\\n";
    case '\t': return "\\t";
    case '\r': return "\\r";
    case '<': return "\\u003c"; /* no "</script" or "<!--" can form */
    default:
        if (c < 0x20 || c == 0x7F) {
            snprintf(buf, 8, "\\u%04x", c);
            return buf;
        }
        return NULL;
    }
}

static const char *html_escape_of(unsigned char c, char buf[8])
{
    (void)buf;
    switch (c) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\'': return "&#39;";
    default: return NULL;
    }
}

typedef const char *escape_fn(unsigned char c, char buf[8]);

/* Walks s, copying runs of plain bytes and replacing the rest: an ASCII byte
 * with what escape_of gives (if anything), invalid UTF-8 with U+FFFD. */
static void write_escaped(FILE *out, const char *s, escape_fn *escape_of)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    const unsigned char *run = p;
    char buf[8];
    while (*p) {
        size_t len = utf8_sequence_length(p);
        const char *replacement = NULL;
        if (len == 0)
            replacement = REPLACEMENT_UTF8;
        else if (len == 1)
            replacement = escape_of(*p, buf);
        if (!replacement) {
            p += len;
            continue;
        }
        fwrite(run, 1, (size_t)(p - run), out);
        fputs(replacement, out);
        p += len ? len : 1;
        run = p;
    }
    fwrite(run, 1, (size_t)(p - run), out);
}

void escape_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    write_escaped(out, s, json_escape_of);
    fputc('"', out);
}

void escape_html_text(FILE *out, const char *s)
{
    write_escaped(out, s, html_escape_of);
}
