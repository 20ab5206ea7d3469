/*
 * output_dir.c - readies the output directory of a recording: names the
 * default one, creates it (mkdir -p), makes sure it is safe to write into
 * (the user's own or root's, and so is a symbolic link that names it: a
 * directory another user planted could be emptied, watched or swapped
 * under the recording) and writable, and clears what the earlier
 * recording into it wrote (manifest.c). Never removes a file itself.
 */
#include "output_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "manifest.h"
#include "user_name.h"

void default_output_dir(char *dir, size_t len, pid_t pid)
{
    snprintf(dir, len, "stoke-%d", (int)pid);
}

/* mkdir -p: creates every missing component of dir. */
static int make_directories(const char *dir)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
        return ENAMETOOLONG;
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(path, 0777) && errno != EEXIST)
            return errno;
        *p = saved;
        if (!saved)
            break;
    }
    struct stat st;
    if (stat(path, &st))
        return errno;
    return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
}

/* Refuses dir when it, or the symbolic link that names it, belongs to
 * another user than this one and root. */
static int check_owner(const char *dir, char *err, size_t errlen)
{
    struct stat link, target;
    if (lstat(dir, &link) || stat(dir, &target)) {
        snprintf(err, errlen, "cannot use output directory '%s': %s; choose another with -o",
                 dir, strerror(errno));
        return -1;
    }
    int planted_link = S_ISLNK(link.st_mode) && !owned_by_user_or_root(link.st_uid);
    if (!planted_link && owned_by_user_or_root(target.st_uid))
        return 0;
    char owner[128];
    stoke_user_name(planted_link ? link.st_uid : target.st_uid, owner, sizeof owner);
    snprintf(err, errlen,
             "output directory '%s' %s another user, %s: they could change or remove what "
             "stoke writes there; choose another with -o, a directory of your own",
             dir, planted_link ? "is a symbolic link owned by" : "belongs to", owner);
    return -1;
}

int prepare_output_dir(const char *dir, struct output_files *earlier, char *err,
                       size_t errlen)
{
    int error = make_directories(dir);
    if (!error && check_owner(dir, err, errlen))
        return -1;
    int fd = -1;
    if (!error && access(dir, W_OK | X_OK))
        error = errno;
    if (!error && (fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
        error = errno;
    if (!error) {
        remove_earlier_recording(fd, dir);
        if (list_output_files(fd, earlier))
            error = errno;
    }
    if (fd >= 0)
        close(fd);
    if (error)
        snprintf(err, errlen, "cannot use output directory '%s': %s; choose another with -o",
                 dir, strerror(error));
    return error ? -1 : 0;
}
