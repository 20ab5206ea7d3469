/*
 * html.c - writes the HTML flame graph report: the embedded page shell
 * (viewer code and styles, see embed.cmake) with the title and the profile
 * data put in at its two markers.
 *
 * Owns: filling the shell's markers.
 * Never: writes a name or title unescaped, or anything that loads from
 * outside the file.
 */
#include "html.h"

#include <string.h>

#include "escape.h"
#include "report_data.h"
#include "shell.h"

#define MARKER_PREFIX "<!--stoke:"
#define DEFAULT_TITLE "stoke profile"

struct slot {
    const char *marker;
    int (*write)(FILE *out, const struct stoke_profile *p, const char *title);
};

static int write_title(FILE *out, const struct stoke_profile *p, const char *title)
{
    (void)p;
    escape_html_text(out, title);
    return 0;
}

static const struct slot slots[] = {
    {"<!--stoke:title-->", write_title},
    {"<!--stoke:data-->", report_data_write},
};

static const struct slot *slot_at(const char *text)
{
    for (size_t i = 0; i < sizeof(slots) / sizeof(slots[0]); i++)
        if (strncmp(text, slots[i].marker, strlen(slots[i].marker)) == 0)
            return &slots[i];
    return NULL;
}

int stoke_write_html(FILE *out, const struct stoke_profile *p, const char *title)
{
    const char *rest = stoke_report_shell;
    const char *mark;
    if (!title || !*title)
        title = DEFAULT_TITLE;
    while ((mark = strstr(rest, MARKER_PREFIX)) != NULL) {
        const struct slot *slot = slot_at(mark);
        fwrite(rest, 1, (size_t)(mark - rest), out);
        if (!slot) { /* not a marker of ours: copy it through */
            fputs(MARKER_PREFIX, out);
            rest = mark + strlen(MARKER_PREFIX);
            continue;
        }
        if (slot->write(out, p, title) < 0)
            return -1;
        rest = mark + strlen(slot->marker);
    }
    fputs(rest, out);
    if (fflush(out) == EOF || ferror(out))
        return -1;
    return 0;
}
