/*
 * load_tool.c - see load_tool.h. Never waits: the pipe is read only
 * when poll says it has data (or with O_NONBLOCK), and reaping is the
 * session's.
 */
#define _GNU_SOURCE /* pipe2 */
#include "load_tool.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"

#define KEPT_OUTPUT_MAX (1 << 20)

/* The length of a $PORT or ${PORT} at text, or 0 ($PORTS is another name). */
static size_t port_reference(const char *text)
{
    if (!strncmp(text, "${PORT}", 7))
        return 7;
    if (!strncmp(text, "$PORT", 5) && !isalnum((unsigned char)text[5]) && text[5] != '_')
        return 5;
    return 0;
}

char *expand_port(const char *command, unsigned port)
{
    char digits[8];
    snprintf(digits, sizeof digits, "%u", port);
    char *out = stoke_xmalloc(strlen(command) * sizeof digits + 1);
    size_t n = 0;
    while (*command) {
        size_t skip = port_reference(command);
        if (skip) {
            memcpy(out + n, digits, strlen(digits));
            n += strlen(digits);
            command += skip;
        } else {
            out[n++] = *command++;
        }
    }
    out[n] = '\0';
    return out;
}

static _Noreturn void become_load(const char *command, int output_fd, const sigset_t *mask)
{
    setpgid(0, 0);
    int null = open("/dev/null", O_RDONLY);
    if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(output_fd, STDOUT_FILENO) < 0 ||
        dup2(output_fd, STDERR_FILENO) < 0)
        _exit(127);
    sigprocmask(SIG_SETMASK, mask, NULL);
    execl("/bin/sh", "sh", "-c", command, (char *)NULL);
    _exit(127);
}

int load_tool_start(struct load_tool *load, const char *command, const sigset_t *mask)
{
    *load = (struct load_tool){.pid = -1, .output_fd = -1};
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC))
        return -1;
    pid_t pid = fork();
    if (pid == 0)
        become_load(command, pipe_fds[1], mask);
    int error = errno;
    close(pipe_fds[1]);
    if (pid < 0) {
        close(pipe_fds[0]);
        errno = error;
        return -1;
    }
    setpgid(pid, pid);
    fcntl(pipe_fds[0], F_SETFL, O_NONBLOCK);
    load->pid = pid;
    load->output_fd = pipe_fds[0];
    return 0;
}

static void keep(struct load_output *out, const char *data, size_t n)
{
    size_t room = KEPT_OUTPUT_MAX - out->len;
    size_t kept = n < room ? n : room;
    out->dropped += n - kept;
    if (!kept)
        return;
    if (out->len + kept + 1 > out->cap) {
        out->cap = out->len + kept + 1 > 2 * out->cap ? out->len + kept + 1 : 2 * out->cap;
        out->text = stoke_xrealloc(out->text, out->cap);
    }
    memcpy(out->text + out->len, data, kept);
    out->len += kept;
    out->text[out->len] = '\0';
}

void load_tool_pump(struct load_tool *load)
{
    char buffer[8192];
    ssize_t n;
    while (load->output_fd >= 0 && (n = read(load->output_fd, buffer, sizeof buffer)) != 0) {
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN)
                return;
            break;
        }
        fwrite(buffer, 1, (size_t)n, stdout);
        fflush(stdout);
        keep(&load->output, buffer, (size_t)n);
    }
    if (load->output_fd >= 0)
        close(load->output_fd);
    load->output_fd = -1;
}

void load_tool_free(struct load_tool *load)
{
    if (load->output_fd >= 0)
        close(load->output_fd);
    free(load->output.text);
    *load = (struct load_tool){.pid = -1, .output_fd = -1};
}
