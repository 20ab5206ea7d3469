/*
 * data_block.h - the report's data as it sits in the page: the JSON
 * document of report_data.h, deflated (raw deflate, RFC 1951) and written
 * in base64. A large profile makes a small file that the browser reads
 * fast; the page inflates it with DecompressionStream('deflate-raw')
 * (js/data.js). Base64 holds no '<', '&' or quote, so the block is inert in
 * any HTML context.
 */
#ifndef STOKE_DATA_BLOCK_H
#define STOKE_DATA_BLOCK_H

#include <stdio.h>
#include "report.h"

/* Returns 0, or -1 when out of memory or deflate fails (errno set). Write
 * errors are left in out's error flag. */
int data_block_write(FILE *out, const struct stoke_report *r);

#endif
