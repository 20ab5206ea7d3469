/*
 * escape.h - writes arbitrary bytes (symbol names, paths, titles) as inert
 * text for the report: a JSON string that stays inert inside an HTML <script>
 * block, or HTML text. Invalid UTF-8 becomes U+FFFD, so the page is always
 * valid UTF-8.
 */
#ifndef STOKE_ESCAPE_H
#define STOKE_ESCAPE_H

#include <stdio.h>

/* Writes s as a quoted JSON string with every '<' written as \u003c, so no
 * "</script" or "<!--" can appear ('>' and '&' mean nothing inside a script
 * block and stay as they are: C++ names are full of them). NULL is "". */
void escape_json_string(FILE *out, const char *s);

/* The longest common prefix of a and b that ends on a whole, valid UTF-8
 * sequence: returns its length in bytes and puts in *units its length in
 * UTF-16 code units (what JavaScript's String.prototype.slice counts). */
size_t utf8_common_prefix(const char *a, const char *b, size_t *units);

/* Writes s as HTML text (for <title>): & < > " ' become entities. */
void escape_html_text(FILE *out, const char *s);

#endif
