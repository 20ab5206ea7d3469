/*
 * runtime_names.c - see runtime_names.h.
 *
 * Owns: recognising node and the JVM, the JVM's JAVA_TOOL_OPTIONS while it
 * starts, and which of the runtime's files are stoke's to remove.
 * Never: removes a file the program asked for, one another user owns, or
 * one older than the process.
 */
#define _GNU_SOURCE
#include "runtime_names.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "stoke_agent_env.h"
#include "common/procfs.h"

#define JAVA_NOTICE_FORMAT "Picked up %s: %s\n"
#define JAVA_VARIABLE "JAVA_TOOL_OPTIONS"

static struct {
    int map_ours;        /* the perf map is stoke's doing */
    int logs_ours;       /* node's isolate logs are stoke's doing */
    int java_notice;     /* the JVM has yet to announce JAVA_TOOL_OPTIONS */
    int java_had_value;  /* JAVA_TOOL_OPTIONS was set before stoke's flags */
    char java_value[4096]; /* its value then */
    char start_dir[4096]; /* the working directory at the start */
    time_t start_time;
} state;

static char cmdline[8192];
static size_t cmdline_len;

/* The i-th argument of the process (0: the program), or NULL. */
static const char *argument(int i)
{
    size_t at = 0;
    for (; i > 0 && at < cmdline_len; i--)
        at += strnlen(cmdline + at, cmdline_len - at) + 1;
    return at < cmdline_len ? cmdline + at : NULL;
}

/* Whether an option before the script (node) or main class (java) starts
 * with one of prefixes. */
static int option_given(const char *const *prefixes)
{
    const char *arg;
    for (int i = 1; (arg = argument(i)) && arg[0] == '-'; i++)
        for (const char *const *p = prefixes; *p; p++)
            if (!strncmp(arg, *p, strlen(*p)))
                return 1;
    return 0;
}

static int asked(const char *runtime)
{
    const char *list = getenv(STOKE_ENV_RUNTIME_NAMES);
    size_t n = strlen(runtime);
    for (const char *p = list; p && *p; p += strcspn(p, ","), p += *p == ',')
        if (!strncmp(p, runtime, n) && (p[n] == ',' || !p[n]))
            return 1;
    return 0;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* --- node ------------------------------------------------------------------- */

static int is_node(const char *exe)
{
    const char *name = base_name(exe);
    return !strcmp(name, "node") || !strcmp(name, "nodejs");
}

static void init_node(void)
{
    static const char *const perf_options[] = {"--perf-basic-prof", "--perf-prof", NULL};
    static const char *const log_options[] = {"--perf-basic-prof", "--perf-prof", "--prof",
                                              "--log", NULL};
    const char *options = getenv("NODE_OPTIONS");
    if (!asked("node") || !options || !strstr(options, STOKE_NODE_FLAGS))
        return;
    state.map_ours = !option_given(perf_options);
    state.logs_ours = !option_given(log_options);
}

/* isolate-0x<address>-<pid>-...v8.log, the name V8 gives a log per isolate. */
static int is_isolate_log(const char *name, const char *pid_part)
{
    size_t len = strlen(name);
    return !strncmp(name, "isolate-0x", 10) && strstr(name, pid_part) && len > 7 &&
           !strcmp(name + len - 7, "-v8.log");
}

static void remove_isolate_logs(const char *dir)
{
    char pid_part[32], path[4096 + 256];
    snprintf(pid_part, sizeof pid_part, "-%d-", (int)getpid());
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        struct stat st;
        if (!is_isolate_log(e->d_name, pid_part) ||
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path ||
            lstat(path, &st))
            continue;
        if (S_ISREG(st.st_mode) && st.st_uid == geteuid() && st.st_mtime >= state.start_time)
            unlink(path);
    }
    closedir(d);
}

/* --- java ------------------------------------------------------------------- */

/* The major release of the JDK the launcher exe belongs to (its "release"
 * file, two levels up), 0 when unknown. 1.8 is 8. */
static int java_release(const char *exe)
{
    char path[4096], text[4096];
    snprintf(path, sizeof path, "%s", exe);
    for (int up = 0; up < 2; up++) {
        char *slash = strrchr(path, '/');
        if (!slash)
            return 0;
        *slash = 0;
    }
    strncat(path, "/release", sizeof path - strlen(path) - 1);
    size_t len = procfs_read(path, text, sizeof text - 1);
    text[len] = 0;
    const char *version = strstr(text, "JAVA_VERSION=\"");
    if (!version)
        return 0;
    const char *digits = version + 14;
    int major = atoi(digits);
    if (major == 1 && (digits = strchr(digits, '.')))
        major = atoi(digits + 1);
    return major;
}

static void init_java(const char *exe)
{
    static const char *const dump_options[] = {"-XX:+DumpPerfMapAtExit", NULL};
    const char *before = getenv(JAVA_VARIABLE);
    char value[sizeof state.java_value + sizeof STOKE_JAVA_FLAGS + 1];
    if (!asked("java") || strcmp(base_name(exe), "java") ||
        java_release(exe) < STOKE_JAVA_MIN_VERSION || option_given(dump_options) ||
        (before && (strstr(before, "DumpPerfMapAtExit") ||
                    strlen(before) >= sizeof state.java_value)))
        return;
    state.java_had_value = before != NULL;
    snprintf(state.java_value, sizeof state.java_value, "%s", before ? before : "");
    snprintf(value, sizeof value, "%s%s%s", state.java_value, *state.java_value ? " " : "",
             STOKE_JAVA_FLAGS);
    if (setenv(JAVA_VARIABLE, value, 1))
        return;
    state.java_notice = 1;
    state.map_ours = 1;
}

int runtime_names_quiet_notice(FILE *stream, const char *format, va_list ap, int *result)
{
    if (!state.java_notice || strcmp(format, JAVA_NOTICE_FORMAT))
        return 0;
    va_list args;
    va_copy(args, ap);
    const char *name = va_arg(args, const char *);
    va_end(args);
    if (strcmp(name, JAVA_VARIABLE))
        return 0;
    state.java_notice = 0;
    if (state.java_had_value)
        setenv(JAVA_VARIABLE, state.java_value, 1);
    else
        unsetenv(JAVA_VARIABLE);
    *result = *state.java_value ? fprintf(stream, JAVA_NOTICE_FORMAT, name, state.java_value)
                                : 0;
    return 1;
}

/* --- both ------------------------------------------------------------------- */

void runtime_names_init(void)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    cmdline_len = procfs_read("/proc/self/cmdline", cmdline, sizeof cmdline);
    state.start_time = time(NULL);
    if (!getcwd(state.start_dir, sizeof state.start_dir))
        state.start_dir[0] = 0;
    if (is_node(exe))
        init_node();
    else
        init_java(exe);
}

int runtime_names_map_is_ours(void)
{
    return state.map_ours;
}

void runtime_names_finish(void)
{
    char now[4096];
    if (!state.logs_ours)
        return;
    if (state.start_dir[0])
        remove_isolate_logs(state.start_dir);
    if (getcwd(now, sizeof now) && strcmp(now, state.start_dir))
        remove_isolate_logs(now);
}
