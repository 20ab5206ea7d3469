/*
 * user_name.h - a user as messages name one: "nobody (uid 65534)", or
 * "uid 4321" for a uid without an account.
 */
#ifndef STOKE_USER_NAME_H
#define STOKE_USER_NAME_H

#include <stddef.h>
#include <sys/types.h>

void stoke_user_name(uid_t uid, char *name, size_t len);

#endif
