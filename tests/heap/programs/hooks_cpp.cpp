/*
 * hooks_cpp.cpp - a C++ program whose memory comes from new and delete
 * (scalar and array, containers, strings, shared pointers), through a
 * class in a namespace, so snapshots must name its frames demangled:
 * heap_cpp::Cache::fill, heap_cpp::Cache::leak. What it keeps: Cache::leak
 * leaks 100 blocks of new char[1000] (100000 bytes); Cache::fill makes
 * 20000 new int (deleted at once) and builds containers that are all
 * destroyed before exit.
 *
 * Prints "hooks_cpp: ok <checksum>" and exits 0.
 * usage: hooks_cpp
 * Never reads input or writes files.
 */
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace heap_cpp {

/* Hides where a pointer came from, so the compiler keeps a new/delete pair. */
__attribute__((noipa)) int *opaque(int *p)
{
    return p;
}

struct Item {
    std::string name;
    std::vector<int> values;
};

class Cache {
public:
    __attribute__((noipa)) void fill(int n)
    {
        for (int i = 0; i < n; i++) {
            auto item = std::make_shared<Item>();
            item->name = "item number " + std::to_string(i) + " with a name too long for SSO";
            item->values.assign(static_cast<size_t>(i % 50 + 1), i);
            items_[i % 100] = item;
            int *scalar = opaque(new int(i));
            checksum_ += static_cast<unsigned long>(*scalar);
            delete scalar;
        }
    }

    __attribute__((noipa)) void leak(int n)
    {
        for (int i = 0; i < n; i++) {
            char *block = new char[1000];
            block[i % 1000] = static_cast<char>(i);
            leaked_.push_back(block);
        }
    }

    void drop_leaked_records() { leaked_.clear(); leaked_.shrink_to_fit(); }

    unsigned long checksum() const
    {
        unsigned long sum = checksum_;
        for (const auto &entry : items_)
            sum += entry.second->name.size() + entry.second->values.size();
        return sum;
    }

private:
    std::map<int, std::shared_ptr<Item>> items_;
    std::vector<char *> leaked_;
    unsigned long checksum_ = 0;
};

} // namespace heap_cpp

int main()
{
    unsigned long checksum;
    {
        heap_cpp::Cache cache;
        cache.fill(20000);
        cache.leak(100);
        cache.drop_leaked_records(); /* the blocks themselves stay: the leak */
        checksum = cache.checksum();
    }
    std::printf("hooks_cpp: ok %lu\n", checksum);
    return 0;
}
