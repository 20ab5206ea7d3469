/*
 * dl_alloc_plugin.c - the library dl_alloc_stress loads and unloads: it
 * allocates in its constructor and frees in its destructor (both run with
 * the loader's lock held), and offers one function that allocates too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static char *scratch;

__attribute__((constructor)) static void plugin_load(void)
{
    scratch = malloc(4096);
    if (scratch)
        memset(scratch, 1, 4096);
}

__attribute__((destructor)) static void plugin_unload(void)
{
    free(scratch);
}

uint64_t plugin_sum(uint64_t x)
{
    unsigned char *copy = malloc(256);
    if (!copy)
        return x;
    memcpy(copy, scratch ? scratch : "", scratch ? 256 : 1);
    for (int i = 0; i < 256; i++)
        x = x * 31 + copy[i % (scratch ? 256 : 1)];
    free(copy);
    return x;
}
