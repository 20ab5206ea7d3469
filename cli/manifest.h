/*
 * manifest.h - the manifest stoke record leaves in its output directory
 * (stoke-manifest.txt): the files that recording wrote, each with its
 * inode and size, so that the next recording into the directory removes
 * exactly those, and only while they are unchanged.
 */
#ifndef STOKE_CLI_MANIFEST_H
#define STOKE_CLI_MANIFEST_H

#include "output_files.h"

#define MANIFEST_FILE "stoke-manifest.txt"

/* Removes the files the manifest in the directory (open as dir_fd, named
 * dir in messages) lists that are still as the earlier recording left
 * them, then the manifest; says on stderr what it removed and what it kept
 * because it changed. A directory without a manifest (or with one that is
 * not the user's own) is left as it is. */
void remove_earlier_recording(int dir_fd, const char *dir);

/* Writes the manifest of the recording into dir: the files of stoke's
 * kinds there now, but those of earlier (which were there before it). No
 * such file: no manifest. Returns 0, or -1 after a warning on stderr. */
int leave_manifest(const char *dir, const struct output_files *earlier);

#endif
