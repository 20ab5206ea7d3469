/*
 * html.h - writes a profile as one self-contained HTML flame graph: the
 * viewer's code and styles (embedded into stoke at build time from viewer/)
 * and the profile data, with no network request at load.
 */
#ifndef STOKE_HTML_H
#define STOKE_HTML_H

#include <stdio.h>
#include "profile.h"

/* Returns 0, or -1 on a write error (errno set). */
int stoke_write_html(FILE *out, const struct stoke_profile *p, const char *title);

#endif
