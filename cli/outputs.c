/*
 * outputs.c - puts profiles into files: the HTML flame graph (one profile,
 * or several in tabs), folded stacks and differential folded stacks, pprof,
 * speedscope and Chrome .cpuprofile files, through the viewer's, the
 * symbolizer's and the formats' writers. Owns where a
 * report goes by default and what its title is; files are created by
 * report_file.c (never half-written, never through a link). Never formats
 * profile data itself.
 */
#define _GNU_SOURCE /* memrchr */
#include "outputs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cpuprofile.h"
#include "folded.h"
#include "html.h"
#include "pprof.h"
#include "report_file.h"
#include "speedscope.h"

void report_path_for(const char *input, const char *name, char *path, size_t len)
{
    int end = (int)strlen(input);
    while (end > 1 && input[end - 1] == '/')
        end--;
    struct stat st;
    if (stat(input, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(path, len, "%.*s/%s", end, input, name);
        return;
    }
    const char *slash = memrchr(input, '/', (size_t)end);
    if (slash)
        snprintf(path, len, "%.*s/%s", (int)(slash - input), input, name);
    else
        snprintf(path, len, "%s", name);
}

/* "comm (pid)" of the process with the most samples, and how many others. */
static void report_title(const struct stoke_profile *p, char *title, size_t len)
{
    const struct stoke_process_summary *top = NULL;
    for (size_t i = 0; i < p->nprocs; i++)
        if (!top || p->procs[i].samples > top->samples)
            top = &p->procs[i];
    if (!top)
        snprintf(title, len, "stoke profile");
    else if (p->nprocs == 1)
        snprintf(title, len, "%s (%u)", top->comm, top->pid);
    else
        snprintf(title, len, "%s (%u) and %zu other process%s", top->comm, top->pid,
                 p->nprocs - 1, p->nprocs == 2 ? "" : "es");
}

/* What goes into one file: a writer and what it writes. */
struct job {
    int (*write)(FILE *out, const struct job *job);
    const struct stoke_profile *profile;
    size_t value_index;
    const struct stoke_html_tab *tabs;
    size_t ntabs;
    const char *title;
    const struct stoke_html_note *note;
    const struct stoke_profile *const *profiles; /* differential: one after another */
    size_t nprofiles;
};

/* Writes job to path, or to stdout when path is NULL. */
static int write_job(const struct job *job, const char *path, char *err, size_t errlen)
{
    if (!path) {
        if (job->write(stdout, job) == 0 && fflush(stdout) == 0)
            return 0;
        snprintf(err, errlen, "cannot write to standard output: %s", strerror(errno));
        return -1;
    }
    struct report_file file;
    if (report_file_open(&file, path, err, errlen))
        return -1;
    int failed = job->write(file.out, job) != 0 || fflush(file.out) != 0;
    return report_file_close(&file, failed, err, errlen);
}

static int html(FILE *out, const struct job *job)
{
    char title[256];
    report_title(job->profile, title, sizeof title);
    return stoke_write_html(out, job->profile, title);
}

static int html_tabs(FILE *out, const struct job *job)
{
    char title[256];
    if (job->title)
        snprintf(title, sizeof title, "%s", job->title);
    else
        report_title(job->tabs[0].profile, title, sizeof title);
    return stoke_write_html_report(out, job->tabs, job->ntabs, title, job->note);
}

static int folded(FILE *out, const struct job *job)
{
    return stoke_write_folded(out, job->profile, job->value_index);
}

static int folded_diffs(FILE *out, const struct job *job)
{
    for (size_t i = 0; i < job->nprofiles; i++)
        if (stoke_write_folded_diff(out, job->profiles[i]))
            return -1;
    return 0;
}

static int pprof(FILE *out, const struct job *job)
{
    return stoke_write_pprof(out, job->profile);
}

static int speedscope(FILE *out, const struct job *job)
{
    char title[256];
    report_title(job->profile, title, sizeof title);
    return stoke_write_speedscope(out, job->profile, job->value_index, title);
}

static int cpuprofile(FILE *out, const struct job *job)
{
    return stoke_write_cpuprofile(out, job->profile);
}

int write_html_file(const struct stoke_profile *p, const char *path, char *err, size_t errlen)
{
    struct job job = {.write = html, .profile = p};
    return write_job(&job, path, err, errlen);
}

int write_html_tabs_file(const struct stoke_html_tab *tabs, size_t ntabs, const char *title,
                         const struct stoke_html_note *note, const char *path, char *err,
                         size_t errlen)
{
    struct job job = {.write = html_tabs, .tabs = tabs, .ntabs = ntabs, .title = title,
                      .note = note};
    return write_job(&job, path, err, errlen);
}

int write_folded_diff_file(const struct stoke_profile *const *diffs, size_t n, const char *path,
                           char *err, size_t errlen)
{
    struct job job = {.write = folded_diffs, .profiles = diffs, .nprofiles = n};
    return write_job(&job, path, err, errlen);
}

int write_format_file(int format, const struct stoke_profile *p, size_t value_index,
                      const char *path, char *err, size_t errlen)
{
    static int (*const writers[])(FILE *, const struct job *) = {
        [FORMAT_HTML] = html,
        [FORMAT_FOLDED] = folded,
        [FORMAT_PPROF] = pprof,
        [FORMAT_SPEEDSCOPE] = speedscope,
        [FORMAT_CPUPROFILE] = cpuprofile,
    };
    struct job job = {.write = writers[format], .profile = p, .value_index = value_index};
    return write_job(&job, path, err, errlen);
}
