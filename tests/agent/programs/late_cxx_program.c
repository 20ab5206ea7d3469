/*
 * late_cxx_program.c - a C program that loads a C++ library after it
 * started (as a C server loads a module): no C++ runtime is loaded when the
 * agent starts, so the agent finds no operator new or delete then.
 *
 * usage: late_cxx_program LIBRARY local|global
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    int scope = strcmp(argv[2], "global") ? RTLD_LOCAL : RTLD_GLOBAL;
    void *library = dlopen(argv[1], RTLD_NOW | scope);
    if (!library) {
        fprintf(stderr, "%s\n", dlerror());
        return 2;
    }
    long (*work)(int) = (long (*)(int))dlsym(library, "late_cxx_work");
    if (!work)
        return 2;
    printf("%ld\n", work(1000));
    return 0;
}
