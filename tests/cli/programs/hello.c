/*
 * hello.c - the smallest program: prints one line. Built statically linked
 * and copied setuid by the tests of programs the agent cannot enter.
 *
 * usage: hello
 */
#include <stdio.h>

int main(void)
{
    printf("hello from a program stoke cannot preload into\n");
    return 0;
}
