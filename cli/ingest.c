/*
 * ingest.c - the Pyroscope ingest request; see ingest.h.
 *
 * Owns: the URL (its /ingest path, its credentials kept out of messages),
 * the query, the form, the timeouts, and telling the user what the server
 * answered. Never prints the URL's user name or password.
 */
#include "ingest.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

#define ANSWER_SHOWN 300 /* bytes of the server's answer shown to the user */

/* --- names and labels ----------------------------------------------------- */

static int valid_label_key(const char *k, size_t len)
{
    if (!len || !(k[0] == '_' || (k[0] >= 'a' && k[0] <= 'z') || (k[0] >= 'A' && k[0] <= 'Z')))
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!(k[i] == '_' || k[i] == '.' || (k[i] >= 'a' && k[i] <= 'z') ||
              (k[i] >= 'A' && k[i] <= 'Z') || (k[i] >= '0' && k[i] <= '9')))
            return 0;
    return 1;
}

int ingest_check_label(const char *who, const char *option, const char *label)
{
    const char *eq = strchr(label, '=');
    if (eq && valid_label_key(label, (size_t)(eq - label)) && eq[1] && !strpbrk(eq + 1, ",{}=\""))
        return 0;
    fprintf(stderr, "%s: %s '%s' is not KEY=VALUE (a key of letters, digits, '_' and '.'; a "
                    "value without , { } = or \")\n", who, option, label);
    return -1;
}

int ingest_check_name(const char *who, const char *option, const char *name)
{
    if (*name && !strpbrk(name, "{},=\"") && strlen(name) <= INGEST_NAME_MAX)
        return 0;
    fprintf(stderr, "%s: %s '%s' may not be empty or hold { } , = or \"; give labels with "
                    "KEY=VALUE options\n", who, option, name);
    return -1;
}


/* --- the URL -------------------------------------------------------------- */

/* The URL's path with "/ingest" after it (a server behind a proxy may have
 * a path of its own). */
static int set_ingest_path(CURLU *u)
{
    char *path = NULL;
    if (curl_url_get(u, CURLUPART_PATH, &path, 0))
        return -1;
    size_t len = strlen(path);
    while (len && path[len - 1] == '/')
        len--;
    char *ingest = stoke_xmalloc(len + sizeof "/ingest");
    snprintf(ingest, len + sizeof "/ingest", "%.*s/ingest", (int)len, path);
    int rc = curl_url_set(u, CURLUPART_PATH, ingest, 0) ? -1 : 0;
    free(ingest);
    curl_free(path);
    return rc;
}

static void describe_without_credentials(struct ingest *t)
{
    CURLU *copy = curl_url_dup(t->url);
    char *text = NULL;
    curl_url_set(copy, CURLUPART_USER, NULL, 0);
    curl_url_set(copy, CURLUPART_PASSWORD, NULL, 0);
    curl_url_set(copy, CURLUPART_QUERY, NULL, 0);
    if (curl_url_get(copy, CURLUPART_URL, &text, 0) == CURLUE_OK)
        snprintf(t->shown, sizeof t->shown, "%s", text);
    else
        snprintf(t->shown, sizeof t->shown, "the --url server");
    curl_free(text);
    curl_url_cleanup(copy);
}

static int parse_url(const char *url, struct ingest *t)
{
    char *scheme = NULL;
    t->url = curl_url();
    int bad = !t->url || curl_url_set(t->url, CURLUPART_URL, url, 0) ||
              curl_url_get(t->url, CURLUPART_SCHEME, &scheme, 0) ||
              (strcmp(scheme, "http") && strcmp(scheme, "https")) || set_ingest_path(t->url);
    curl_free(scheme);
    if (bad) {
        /* the text may hold a password: name the option, not the text */
        fprintf(stderr, "%s: the server's URL is not an http:// or https:// URL; give it as "
                        "http://HOST:4040\n", t->who);
        return -1;
    }
    curl_url_get(t->url, CURLUPART_USER, &t->user, 0);
    curl_url_get(t->url, CURLUPART_PASSWORD, &t->password, 0);
    curl_url_set(t->url, CURLUPART_QUERY, NULL, 0);
    describe_without_credentials(t);
    return 0;
}

/* Replaces every occurrence of secret in text with "***". libcurl's
 * messages name the host and port, never the URL's user and password, and
 * the server only sees them encoded in a header: this is a second guard, for
 * secrets long enough to be told from ordinary words. */
static void redact(char *text, const char *secret)
{
    size_t n = secret ? strlen(secret) : 0;
    char *at, *from = text;
    while (n >= 4 && (at = strstr(from, secret))) { /* never longer than before */
        memmove(at + 3, at + n, strlen(at + n) + 1);
        memcpy(at, "***", 3);
        from = at + 3;
    }
}

static void add_query(CURLU *u, const char *key, const char *value)
{
    char item[INGEST_NAME_MAX * 4];
    snprintf(item, sizeof item, "%s=%s", key, value);
    curl_url_set(u, CURLUPART_QUERY, item, CURLU_APPENDQUERY | CURLU_URLENCODE);
}

/* name=APP{k=v,...}, as Pyroscope names a series. */
static void series_name(const struct ingest_options *opt, char *name, size_t len)
{
    size_t used = (size_t)snprintf(name, len, "%s{", opt->name);
    for (size_t i = 0; i < opt->nlabels && used < len; i++)
        used += (size_t)snprintf(name + used, len - used, "%s%s", i ? "," : "", opt->labels[i]);
    if (used < len)
        snprintf(name + used, len - used, "}");
}

/* --- the request ---------------------------------------------------------- */

struct answer {
    char text[ANSWER_SHOWN + 1];
    size_t len;
};

static size_t keep_answer(char *data, size_t size, size_t n, void *ctx)
{
    struct answer *a = ctx;
    size_t len = size * n, room = ANSWER_SHOWN - a->len;
    memcpy(a->text + a->len, data, len < room ? len : room);
    a->len += len < room ? len : room;
    a->text[a->len] = '\0';
    return len;
}

/* The first line of the server's answer, for a message. */
static const char *first_line(struct answer *a)
{
    a->text[strcspn(a->text, "\r\n")] = '\0';
    return a->text;
}

static void add_profile_part(curl_mime *form, const uint8_t *pprof, size_t len)
{
    curl_mimepart *part = curl_mime_addpart(form);
    curl_mime_name(part, "profile");
    curl_mime_filename(part, "profile.pb.gz");
    curl_mime_type(part, "application/octet-stream");
    curl_mime_data(part, (const char *)pprof, len);
}

static int report_failure(CURLcode rc, const char *why, const struct ingest *t)
{
    if (rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST)
        fprintf(stderr, "%s: cannot connect to %s (%s); is the server running there?\n",
                t->who, t->shown, why);
    else if (rc == CURLE_OPERATION_TIMEDOUT)
        fprintf(stderr, "%s: no answer from %s within the time allowed (%s); try again, or "
                        "allow more (now %ld s)\n",
                t->who, t->shown, why, t->opt->timeout_s);
    else
        fprintf(stderr, "%s: sending to %s failed: %s\n", t->who, t->shown, why);
    return -1;
}

/* Posts the form to u; returns 0 or -1 after saying why. */
static int post(struct ingest *t, CURLU *u, const uint8_t *pprof, size_t len)
{
    CURL *curl = t->curl;
    const struct ingest_options *opt = t->opt;
    char why[CURL_ERROR_SIZE] = "", tenant[512];
    struct answer answer = {.len = 0};
    struct curl_slist *headers = NULL;
    curl_mime *form = curl_mime_init(curl);
    add_profile_part(form, pprof, len);
    if (opt->tenant) {
        snprintf(tenant, sizeof tenant, "X-Scope-OrgID: %s", opt->tenant);
        headers = curl_slist_append(headers, tenant);
    }
    curl_easy_setopt(curl, CURLOPT_CURLU, u);
    curl_easy_setopt(curl, CURLOPT_MIMEPOST, form);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "stoke/" STOKE_VERSION);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, opt->connect_timeout_s);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, opt->timeout_s);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, why);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, keep_answer);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &answer);
    CURLcode rc = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_mime_free(form);
    curl_slist_free_all(headers);
    redact(why, t->password);
    redact(why, t->user);
    redact(answer.text, t->password);
    if (rc != CURLE_OK)
        return report_failure(rc, *why ? why : curl_easy_strerror(rc), t);
    if (status < 200 || status >= 300) {
        fprintf(stderr, "%s: %s answered HTTP %ld: %s\n", t->who, t->shown, status,
                *answer.text ? first_line(&answer) : "(no message)");
        return -1;
    }
    fprintf(stderr, "%s: sent %zu bytes of pprof to %s: HTTP %ld%s%s\n", t->who, len, t->shown,
            status, *answer.text ? " " : "", first_line(&answer));
    return 0;
}

static void add_query_parameters(const struct ingest_options *opt,
                                 const struct ingest_window *s, CURLU *u)
{
    char name[INGEST_NAME_MAX * 3], number[32];
    series_name(opt, name, sizeof name);
    add_query(u, "name", name);
    snprintf(number, sizeof number, "%" PRIu64, s->from_s);
    add_query(u, "from", number);
    snprintf(number, sizeof number, "%" PRIu64, s->until_s);
    add_query(u, "until", number);
    add_query(u, "format", "pprof");
    if (s->sample_rate_hz) {
        snprintf(number, sizeof number, "%" PRIu64, s->sample_rate_hz);
        add_query(u, "sampleRate", number);
    }
    add_query(u, "spyName", "stoke");
}


int ingest_open(struct ingest *in, const struct ingest_options *opt, const char *who)
{
    *in = (struct ingest){.opt = opt, .who = who};
    if (parse_url(opt->url, in))
        return -1;
    in->curl = curl_easy_init();
    if (!in->curl) {
        fprintf(stderr, "%s: cannot start libcurl\n", who);
        return -1;
    }
    return 0;
}

int ingest_send(struct ingest *in, const struct ingest_window *w, const uint8_t *pprof,
                size_t len)
{
    CURLU *u = curl_url_dup(in->url);
    if (!u)
        return -1;
    add_query_parameters(in->opt, w, u);
    int rc = post(in, u, pprof, len);
    curl_url_cleanup(u);
    return rc;
}

void ingest_close(struct ingest *in)
{
    curl_easy_cleanup(in->curl);
    curl_free(in->user);
    curl_free(in->password);
    curl_url_cleanup(in->url);
    *in = (struct ingest){0};
}
