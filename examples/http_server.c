/*
 * http_server.c - a small HTTP/1.1 server to profile with stoke: one thread
 * serving every connection with poll(), keep-alive, and three routes with
 * different costs:
 *
 *   /        (or /render) renders a recursive HTML tree of random depth 1 to 5
 *                          (CPU: render_tree)
 *   /alloc   builds and frees thousands of small strings (allocation churn)
 *   /leak    keeps 4 KiB per request and never frees it (a slow leak)
 *
 * usage: http_server [--port N] [--workers N]
 *   --port 0 (the default) lets the kernel choose; the port is printed.
 *   --workers N forks N processes after listening, all accepting on the
 *   same socket (a pre-fork server).
 * SIGINT or SIGTERM: prints "http_server: shutting down" and exits 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define REQUEST_MAX 8192
#define TREE_FANOUT 5
#define LEAK_BYTES 4096
#define MAX_CONNECTIONS 1024

static volatile sig_atomic_t stopping;
static void *leaked_blocks;

struct buffer {
    char *data;
    size_t len, cap;
};

static void buffer_reserve(struct buffer *b, size_t extra)
{
    if (b->len + extra <= b->cap)
        return;
    b->cap = (b->len + extra) * 2;
    b->data = realloc(b->data, b->cap);
    if (!b->data)
        abort();
}

/* Appends <div class="n{depth}" id="{id}"> ... </div> for a node and its
 * children, writing every character itself: the server's hot spot. */
static unsigned long render_tree(struct buffer *b, int depth, unsigned long id)
{
    static const char open[] = "<div class=\"node\" id=\"";
    buffer_reserve(b, 64);
    for (const char *p = open; *p; p++)
        b->data[b->len++] = *p;
    char digits[24];
    int n = 0;
    unsigned long v = id;
    do
        digits[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n)
        b->data[b->len++] = digits[--n];
    b->data[b->len++] = '"';
    b->data[b->len++] = '>';
    unsigned long checksum = id;
    for (int i = 0; i < 400; i++) /* the text of a node, escaped by hand */
        checksum = checksum * 31 + (unsigned long)((id >> (i % 16)) & 0x7f);
    b->data[b->len++] = (char)('a' + checksum % 26);
    if (depth > 1)
        for (unsigned long c = 0; c < TREE_FANOUT; c++)
            checksum ^= render_tree(b, depth - 1, id * TREE_FANOUT + c + 1);
    buffer_reserve(b, 8);
    memcpy(b->data + b->len, "</div>\n", 7);
    b->len += 7;
    return checksum;
}

static void render_page(struct buffer *b, unsigned *seed)
{
    int depth = 1 + (int)(rand_r(seed) % 5);
    static const char head[] = "<!DOCTYPE html><html><body>\n";
    buffer_reserve(b, sizeof head);
    memcpy(b->data + b->len, head, sizeof head - 1);
    b->len += sizeof head - 1;
    render_tree(b, depth, 0);
    buffer_reserve(b, 16);
    memcpy(b->data + b->len, "</body></html>\n", 15);
    b->len += 15;
}

/* Many short-lived strings, as a template engine or JSON encoder makes. */
static void churn_allocations(struct buffer *b)
{
    char *strings[256];
    size_t total = 0;
    for (int round = 0; round < 40; round++) {
        for (int i = 0; i < 256; i++) {
            size_t size = 16 + (size_t)((i * 37 + round) % 200);
            strings[i] = malloc(size);
            if (!strings[i])
                abort();
            memset(strings[i], 'x', size - 1);
            strings[i][size - 1] = '\0';
            total += strlen(strings[i]);
        }
        for (int i = 0; i < 256; i++)
            free(strings[i]);
    }
    buffer_reserve(b, 64);
    b->len += (size_t)snprintf(b->data + b->len, 64, "allocated %zu bytes\n", total);
}

/* A session cache that is never trimmed. */
static void leak_a_little(struct buffer *b)
{
    void **block = malloc(LEAK_BYTES);
    if (!block)
        abort();
    memset(block, 0, LEAK_BYTES);
    *block = leaked_blocks;
    leaked_blocks = block;
    buffer_reserve(b, 32);
    b->len += (size_t)snprintf(b->data + b->len, 32, "kept %d bytes\n", LEAK_BYTES);
}

static int send_all(int fd, const char *data, size_t len, int more)
{
    while (len) {
        ssize_t n = send(fd, data, len, MSG_NOSIGNAL | (more ? MSG_MORE : 0));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

static int respond(int fd, const char *path, int keep_alive, unsigned *seed)
{
    struct buffer body = {0};
    const char *status = "200 OK";
    if (!strcmp(path, "/") || !strcmp(path, "/render"))
        render_page(&body, seed);
    else if (!strcmp(path, "/alloc"))
        churn_allocations(&body);
    else if (!strcmp(path, "/leak"))
        leak_a_little(&body);
    else {
        status = "404 Not Found";
        buffer_reserve(&body, 16);
        body.len = (size_t)snprintf(body.data, 16, "not found\n");
    }
    char head[256];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %s\r\nContent-Type: text/html\r\nContent-Length: %zu\r\n"
                     "Connection: %s\r\n\r\n",
                     status, body.len, keep_alive ? "keep-alive" : "close");
    int rc = send_all(fd, head, (size_t)n, 1) || send_all(fd, body.data, body.len, 0);
    free(body.data);
    return rc;
}

struct connection {
    int fd;
    size_t have;
    char buf[REQUEST_MAX];
};

static int wants_keep_alive(const char *request)
{
    int http11 = strstr(request, "HTTP/1.1\r\n") != NULL;
    if (strcasestr(request, "\r\nConnection: close"))
        return 0;
    return http11 || strcasestr(request, "\r\nConnection: keep-alive") != NULL;
}

/* Answers every complete request c holds; returns -1 when c is done. */
static int serve_requests(struct connection *c, unsigned *seed)
{
    char *end;
    c->buf[c->have] = '\0';
    while ((end = strstr(c->buf, "\r\n\r\n")) != NULL) {
        size_t len = (size_t)(end - c->buf) + 4;
        char path[256] = "/";
        sscanf(c->buf, "%*s %255s", path);
        int keep_alive = wants_keep_alive(c->buf);
        if (respond(c->fd, path, keep_alive, seed) || !keep_alive)
            return -1;
        memmove(c->buf, c->buf + len, c->have - len + 1);
        c->have -= len;
    }
    return c->have < REQUEST_MAX - 1 ? 0 : -1;
}

/* Reads what came on c and answers it; returns -1 when c is done. */
static int on_readable(struct connection *c, unsigned *seed)
{
    ssize_t n = recv(c->fd, c->buf + c->have, REQUEST_MAX - 1 - c->have, 0);
    if (n < 0 && errno == EINTR)
        return 0;
    if (n <= 0)
        return -1;
    c->have += (size_t)n;
    return serve_requests(c, seed);
}

static void on_stop(int sig)
{
    (void)sig;
    stopping = 1;
}

static void handle_stop_signals(void)
{
    struct sigaction sa = {.sa_handler = on_stop}; /* no SA_RESTART: poll returns */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* One thread, poll(): the listener and every open connection. */
static void serve(int listener)
{
    static struct pollfd fds[MAX_CONNECTIONS + 1];
    static struct connection *conns[MAX_CONNECTIONS + 1];
    nfds_t n = 1;
    unsigned seed = (unsigned)getpid();
    fds[0] = (struct pollfd){.fd = listener, .events = POLLIN};
    while (!stopping) {
        if (poll(fds, n, -1) < 0)
            continue;
        for (nfds_t i = n; i-- > 1;) {
            if (!fds[i].revents || on_readable(conns[i], &seed) == 0)
                continue;
            close(fds[i].fd);
            free(conns[i]);
            fds[i] = fds[--n];
            conns[i] = conns[n];
        }
        int fd = fds[0].revents ? accept(listener, NULL, NULL) : -1;
        if (fd >= 0 && n <= MAX_CONNECTIONS && (conns[n] = calloc(1, sizeof **conns))) {
            conns[n]->fd = fd;
            fds[n++] = (struct pollfd){.fd = fd, .events = POLLIN};
        } else if (fd >= 0) {
            close(fd);
        }
    }
}

static int listen_on(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                               .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof addr;
    if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof addr) || listen(fd, 512) ||
        getsockname(fd, (struct sockaddr *)&addr, &len)) {
        perror("http_server: cannot listen");
        exit(1);
    }
    fcntl(fd, F_SETFL, O_NONBLOCK); /* workers race for each connection */
    printf("http_server: listening on http://127.0.0.1:%d/\n", ntohs(addr.sin_port));
    fflush(stdout);
    return fd;
}

/* Pre-fork: the parent waits for its workers, passing a stop on. */
static void run_workers(int listener, int workers)
{
    pid_t pids[64];
    int started = 0;
    for (; started < workers && started < 64; started++) {
        pids[started] = fork();
        if (pids[started] == 0) {
            serve(listener);
            _exit(0);
        }
    }
    while (!stopping && wait(NULL) > 0)
        ;
    for (int i = 0; i < started; i++)
        kill(pids[i], SIGTERM);
    while (wait(NULL) > 0)
        ;
}

int main(int argc, char **argv)
{
    int port = 0, workers = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--port"))
            port = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--workers"))
            workers = atoi(argv[i + 1]);
    }
    handle_stop_signals();
    int listener = listen_on(port);
    if (workers > 0)
        run_workers(listener, workers);
    else
        serve(listener);
    printf("http_server: shutting down\n");
    return 0;
}
