/*
 * user_name.c - see user_name.h. Reads the account database only.
 */
#include "user_name.h"

#include <pwd.h>
#include <stdio.h>

void stoke_user_name(uid_t uid, char *name, size_t len)
{
    struct passwd *pw = getpwuid(uid);
    if (pw)
        snprintf(name, len, "%s (uid %u)", pw->pw_name, (unsigned)uid);
    else
        snprintf(name, len, "uid %u", (unsigned)uid);
}
