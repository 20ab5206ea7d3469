/*
 * shell.h - the report page with the viewer's CSS and JavaScript already
 * inlined, generated at build time by embed.cmake from report.html. It holds
 * two markers that html.c fills: <!--stoke:title--> and <!--stoke:data-->.
 */
#ifndef STOKE_SHELL_H
#define STOKE_SHELL_H

#include <stddef.h>

extern const char stoke_report_shell[];   /* NUL-terminated */
extern const size_t stoke_report_shell_len;

#endif
