/*
 * html.h - writes profiles as one self-contained HTML flame graph: the
 * viewer's code and styles (embedded into stoke at build time from viewer/)
 * and the profile data, with no network request at load.
 */
#ifndef STOKE_HTML_H
#define STOKE_HTML_H

#include "report.h"

/* Writes every tab into one page (a tab bar shows when there are two or
 * more), with the title and the note; tabs share one string pool and frame
 * table. A differential tab whose profile has fewer than two values is
 * written as an ordinary one. EINVAL: no tab, or a tab without a profile. */
stoke_writer stoke_write_html;

#endif
