// late_cxx_library.cpp - C++ code that late_cxx_program.c loads after it
// started: every kind of operator new and delete, and a vector.
#include <new>
#include <vector>

struct alignas(64) Line {
    long values[8];
};

extern "C" long late_cxx_work(int n)
{
    long sum = 0;
    for (int i = 0; i < n; i++) {
        std::vector<long> *v = new std::vector<long>(16, i);
        int *array = new int[i % 7 + 1];
        Line *line = new Line();
        int *quiet = new (std::nothrow) int(i);
        Line *lines = new (std::nothrow) Line[2];
        sum += (*v)[15] + *quiet + (long)(line->values[0] == 0) + (long)(lines != nullptr);
        array[0] = i;
        sum += array[0];
        delete v;
        delete[] array;
        delete line;
        delete quiet;
        delete[] lines;
    }
    return sum;
}
