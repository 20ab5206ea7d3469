/*
 * test_source_paths.c - source paths as debug information names them,
 * made whole (name/source_paths.h): joined to the compilation directory,
 * "." and ".." and repeated slashes taken out, left alone when there is
 * nothing to do. Test trace.source_paths.
 */
#include "check.h"
#include "source_paths.h"

int main(void)
{
    static const char *const cases[][3] = {
        {"/src/app", "main.c", "/src/app/main.c"},
        {"/src/app", "../lib/util.c", "/src/lib/util.c"},
        {"/src/app", "./gen/../x.c", "/src/app/x.c"},
        {NULL, "/build/glibc/csu/../sysdeps/x86/start.S", "/build/glibc/sysdeps/x86/start.S"},
        {"/src", "/usr/include/stdio.h", "/usr/include/stdio.h"},
        {"relative/dir", "x.c", "x.c"}, /* nothing to join to */
        {"/", "../../x.c", "/x.c"},
        {"/a//b/", "c/.", "/a/b/c"},
        {"/src", "", ""},
    };
    struct stoke_source_paths t = {0};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        CHECK_STR(stoke_source_path(&t, cases[i][0], cases[i][1]), cases[i][2]);
    CHECK_STR(stoke_source_path(&t, "/src", NULL), "");
    const char *once = stoke_source_path(&t, "/src/app", "main.c");
    CHECK(once == stoke_source_path(&t, "/src/app/", "./main.c")); /* interned */
    stoke_source_paths_free(&t);
    return check_report("test_source_paths");
}
