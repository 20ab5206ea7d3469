/*
 * scratch.h - helpers shared by the unit tests that need files: a scratch
 * directory, running the test tools (make_trace, sym_target) and capturing
 * their output, and capturing what the code under test prints on stderr.
 *
 * Never: leaves files behind (scratch_cleanup removes the directory).
 */
#ifndef STOKE_TEST_SCRATCH_H
#define STOKE_TEST_SCRATCH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char scratch_dir[64];

static inline void scratch_init(void)
{
    strcpy(scratch_dir, "/tmp/stoke-unit-XXXXXX");
    if (!mkdtemp(scratch_dir)) {
        perror("mkdtemp");
        exit(1);
    }
}

static inline void scratch_cleanup(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", scratch_dir);
}

/* Writes scratch_dir/name into out. */
static inline void scratch_path(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", scratch_dir, name);
}

/* Runs a shell command and returns its stdout (malloc'ed, "" on none); exits
 * the test when the command fails. */
static inline char *run_capture(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    char *buf = calloc(1, 65536);
    size_t n = p ? fread(buf, 1, 65535, p) : 0;
    buf[n] = '\0';
    if (!p || pclose(p) != 0) {
        fprintf(stderr, "command failed: %s\n", cmd);
        exit(1);
    }
    return buf;
}

/* Redirects stderr into a scratch file until stderr_end(), which returns
 * what was written (malloc'ed). */
static int saved_stderr = -1;

static inline void stderr_begin(void)
{
    char path[128];
    scratch_path(path, sizeof path, "stderr.txt");
    fflush(stderr);
    saved_stderr = dup(2);
    if (!freopen(path, "w", stderr))
        exit(1);
}

static inline char *stderr_end(void)
{
    char path[128];
    scratch_path(path, sizeof path, "stderr.txt");
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    FILE *f = fopen(path, "r");
    char *buf = calloc(1, 65536);
    size_t n = f ? fread(buf, 1, 65535, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
    return buf;
}

#endif
