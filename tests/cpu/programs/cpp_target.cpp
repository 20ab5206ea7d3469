/*
 * cpp_target.cpp - a C++ program whose CPU time is spent in a member
 * function of a class in a namespace, called through a template, so its
 * frames carry mangled names that the report must show demangled:
 * e2e_shapes::Polygon::walk_perimeter and e2e_shapes::measure_all<...>.
 *
 * usage: cpp_target MS
 * Never reads input or writes files.
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cpu_spin.h"

namespace e2e_shapes {

class Polygon {
public:
    explicit Polygon(unsigned sides) : sides_(sides) {}

    __attribute__((noipa)) uint64_t walk_perimeter(unsigned ms) const
    {
        return spin_cpu_ms(sides_, ms);
    }

private:
    unsigned sides_;
};

template <typename Shape>
__attribute__((noipa)) uint64_t measure_all(const std::vector<Shape> &shapes, unsigned ms)
{
    uint64_t total = 0;
    for (const Shape &shape : shapes)
        total ^= shape.walk_perimeter(ms / (unsigned)shapes.size());
    return total;
}

} // namespace e2e_shapes

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: cpp_target MS\n");
        return 2;
    }
    std::vector<e2e_shapes::Polygon> shapes{e2e_shapes::Polygon(3), e2e_shapes::Polygon(4)};
    uint64_t total = e2e_shapes::measure_all(shapes, (unsigned)std::atoi(argv[1]));
    std::printf("cpp_target: measured %zu shapes (%d)\n", shapes.size(), total != 0);
    return 0;
}
