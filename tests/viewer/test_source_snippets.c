/*
 * test_source_snippets.c - the source a report keeps around its hot lines
 * (output/html/source_snippets.h), on files written here: the hottest
 * lines first, never more than SOURCE_BUDGET bytes in all, each line cut
 * at SOURCE_MAX_LINE bytes, "\r\n" endings and markup kept inert, and
 * files that cannot be read (gone, a relative path, a directory) giving
 * no lines, nor those only stored names give. Test viewer.source_snippets.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "scratch.h"
#include "source_snippets.h"

#define BIG_LINES 20000
#define BIG_LINE_BYTES 100

static char hot_path[128], big_path[128], gone_path[128];

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    fputs(text, f);
    fclose(f);
}

/* hot.c: 20 lines; line 10 the hot one, line 9 a long one, line 11 ends
 * "\r\n", line 12 holds markup. big.c: BIG_LINES lines of BIG_LINE_BYTES. */
static void write_sources(void)
{
    char text[8192] = "";
    for (int l = 1; l <= 20; l++) {
        char line[1200];
        if (l == 9) {
            memset(line, 'x', 1000);
            strcpy(line + 1000, "\n");
        } else if (l == 11) {
            strcpy(line, "crlf line\r\n");
        } else if (l == 12) {
            strcpy(line, "</script><img src=x onerror=alert(1)>\n");
        } else {
            snprintf(line, sizeof line, "hot line %d\n", l);
        }
        strcat(text, line);
    }
    write_file(hot_path, text);
    FILE *f = fopen(big_path, "wb");
    for (int l = 1; l <= BIG_LINES; l++)
        fprintf(f, "%0*d\n", BIG_LINE_BYTES - 1, l);
    fclose(f);
}

/* own: named from its binary's own file (else from stored names) */
static void add_entry(struct line_table *t, const char *file, uint32_t line, int64_t total,
                      int own)
{
    t->entries = realloc(t->entries, (t->n + 1) * sizeof *t->entries);
    t->entries[t->n++] = (struct line_entry){.file = file, .line = line, .total = {total},
                                             .own_names = (uint8_t)own};
    t->nvalues = 1;
}

static int kept(const struct source_snippets *s, const char *path, uint32_t line)
{
    for (size_t i = 0; i < s->nfiles; i++)
        if (strcmp(s->files[i].path, path) == 0)
            return s->files[i].text && line <= s->files[i].nlines && s->files[i].kept[line - 1];
    return 0;
}

static void check_budget_and_order(void)
{
    struct line_table tables[2] = {{0}};
    add_entry(&tables[0], hot_path, 10, 1000, 1); /* the hottest of all */
    add_entry(&tables[0], gone_path, 5, 900, 1);
    add_entry(&tables[0], "relative/path.c", 5, 800, 1);
    add_entry(&tables[0], scratch_dir, 5, 700, 1); /* a directory */
    add_entry(&tables[0], hot_path, 18, 990, 0);   /* a stored name's: never read */
    /* big.c's lines, each hotter than the next: every 10th line, so each
     * takes 7 lines (700 bytes) of its own */
    for (uint32_t k = 0; k < BIG_LINES / 10; k++)
        add_entry(&tables[1], big_path, 5 + 10 * k, (int64_t)(BIG_LINES - k), 1);
    const int64_t totals[2] = {2000, (int64_t)BIG_LINES * 1000};
    struct source_snippets s;
    CHECK(source_snippets_gather(&s, tables, totals, 2) == 0);
    CHECK(s.bytes <= SOURCE_BUDGET);
    CHECK(s.bytes > SOURCE_BUDGET - 7 * BIG_LINE_BYTES); /* full, to within one hot line */
    for (uint32_t l = 7; l <= 13; l++)
        CHECK(kept(&s, hot_path, l));
    CHECK(!kept(&s, hot_path, 6) && !kept(&s, hot_path, 14) && !kept(&s, hot_path, 18));
    /* big.c's hottest lines are kept, in order, until the budget is spent */
    uint32_t taken = 0;
    while (taken < BIG_LINES / 10 && kept(&s, big_path, 5 + 10 * taken))
        taken++;
    CHECK(taken > 100);
    for (uint32_t k = taken; k < BIG_LINES / 10; k++)
        CHECK(!kept(&s, big_path, 5 + 10 * k));
    CHECK(!kept(&s, gone_path, 5) && !kept(&s, "relative/path.c", 5) && !kept(&s, scratch_dir, 5));

    char *json = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&json, &len);
    uint32_t rank[64];
    for (size_t i = 0; i < 64; i++)
        rank[i] = (uint32_t)i;
    for (size_t i = 0; i < s.nfiles; i++)
        s.files[i].string = (uint32_t)i;
    source_snippets_write(out, &s, rank);
    fclose(out);
    char cut[SOURCE_MAX_LINE + 3];
    cut[0] = '"';
    memset(cut + 1, 'x', SOURCE_MAX_LINE);
    strcpy(cut + 1 + SOURCE_MAX_LINE, "\"");
    CHECK(strstr(json, cut) != NULL);                   /* cut at SOURCE_MAX_LINE */
    CHECK(strstr(json, "\"crlf line\"") != NULL);       /* no \r */
    CHECK(strstr(json, "</script") == NULL && strstr(json, "<img") == NULL);
    CHECK(strstr(json, "\\u003c/script>\\u003cimg") != NULL);
    CHECK(strstr(json, "\"first\":[7,") != NULL);        /* hot.c's run starts at line 7 */
    free(json);
    source_snippets_free(&s);
    free(tables[0].entries);
    free(tables[1].entries);
}

int main(void)
{
    scratch_init();
    scratch_path(hot_path, sizeof hot_path, "hot.c");
    scratch_path(big_path, sizeof big_path, "big.c");
    scratch_path(gone_path, sizeof gone_path, "gone.c");
    write_sources();
    check_budget_and_order();
    scratch_cleanup();
    return check_report("test_source_snippets");
}
