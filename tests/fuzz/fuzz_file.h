/*
 * fuzz_file.h - hands a fuzzer's input to code that opens files by path
 * (the trace reader, the perf map reader, libdwfl): the bytes go into one
 * memory file, rewritten for every input.
 *
 * Never: touches the disk.
 */
#ifndef STOKE_FUZZ_FILE_H
#define STOKE_FUZZ_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Replaces the memory file's contents with data[0..size) and returns its
 * path (/proc/self/fd/N); exits when no memory file can be made. */
const char *fuzz_file(const uint8_t *data, size_t size);

#endif
