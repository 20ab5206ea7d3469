/*
 * open_report.h - `stoke record --open`: shows the report in a browser.
 */
#ifndef STOKE_CLI_OPEN_REPORT_H
#define STOKE_CLI_OPEN_REPORT_H

/* Starts $BROWSER (a command, given path as its last argument) or, without
 * it, xdg-open, and does not wait for it. Returns 0, or -1 after saying on
 * stderr why it could not. */
int open_report(const char *path);

#endif
