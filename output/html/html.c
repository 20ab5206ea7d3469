/*
 * html.c - writes the HTML flame graph report: the embedded page shell
 * (viewer code and styles, see embed.cmake) with the title, the data of
 * every tab and the note (if any) put in at their markers.
 *
 * Owns: filling the shell's markers.
 * Never: writes a name or title unescaped, or anything that loads from
 * outside the file.
 */
#include "html.h"

#include <errno.h>
#include <string.h>

#include "data_block.h"
#include "escape.h"
#include "shell.h"

#define MARKER_PREFIX "<!--stoke:"

struct slot {
    const char *marker;
    int (*write)(FILE *out, const struct stoke_report *r);
};

static int write_title(FILE *out, const struct stoke_report *r)
{
    escape_html_text(out, stoke_report_title(r));
    return 0;
}

static int write_data(FILE *out, const struct stoke_report *r)
{
    return data_block_write(out, r);
}

/* The note as a collapsible block of preformatted text. */
static int write_note(FILE *out, const struct stoke_report *r)
{
    if (!r->note)
        return 0;
    fputs("<details class=\"note\" open><summary>", out);
    escape_html_text(out, r->note->heading);
    fputs("</summary><pre>", out);
    escape_html_text(out, r->note->text);
    fputs("</pre></details>", out);
    return 0;
}

static const struct slot slots[] = {
    {"<!--stoke:title-->", write_title},
    {"<!--stoke:data-->", write_data},
    {"<!--stoke:note-->", write_note},
};

static const struct slot *slot_at(const char *text)
{
    for (size_t i = 0; i < sizeof(slots) / sizeof(slots[0]); i++)
        if (strncmp(text, slots[i].marker, strlen(slots[i].marker)) == 0)
            return &slots[i];
    return NULL;
}

static int tabs_are_valid(const struct stoke_report_tab *tabs, size_t ntabs)
{
    if (!tabs || ntabs == 0)
        return 0;
    for (size_t t = 0; t < ntabs; t++)
        if (!tabs[t].profile)
            return 0;
    return 1;
}

int stoke_write_html(FILE *out, const struct stoke_report *r)
{
    if (!tabs_are_valid(r->tabs, r->ntabs)) {
        errno = EINVAL;
        return -1;
    }
    const char *rest = stoke_report_shell;
    const char *mark;
    while ((mark = strstr(rest, MARKER_PREFIX)) != NULL) {
        const struct slot *slot = slot_at(mark);
        fwrite(rest, 1, (size_t)(mark - rest), out);
        if (!slot) { /* not a marker of ours: copy it through */
            fputs(MARKER_PREFIX, out);
            rest = mark + strlen(MARKER_PREFIX);
            continue;
        }
        if (slot->write(out, r) < 0)
            return -1;
        rest = mark + strlen(slot->marker);
    }
    fputs(rest, out);
    if (fflush(out) == EOF || ferror(out))
        return -1;
    return 0;
}
