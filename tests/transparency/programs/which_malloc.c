/*
 * which_malloc.c - prints the file name (without its directory) of the
 * object whose malloc and free the program calls: libc.so.6 bare, the
 * agent's file where the agent hooks the allocator.
 *
 * usage: which_malloc
 * Never reads input or writes files.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static const char *object_of(const char *symbol)
{
    Dl_info info;
    void *address = dlsym(RTLD_DEFAULT, symbol);
    if (!address || !dladdr(address, &info) || !info.dli_fname)
        return "unknown";
    const char *slash = strrchr(info.dli_fname, '/');
    return slash ? slash + 1 : info.dli_fname;
}

int main(void)
{
    printf("malloc: %s\n", object_of("malloc"));
    printf("free: %s\n", object_of("free"));
    return 0;
}
