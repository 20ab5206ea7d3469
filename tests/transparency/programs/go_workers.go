// go_workers.go - a cgo program as Go servers are: four goroutines computing
// on their own stacks, allocations through C.malloc (cgo) and Go's heap,
// and os.Exit at the end (Go leaves with the raw exit_group system call).
// The output depends only on the work, never on timing.
package main

// #include <stdlib.h>
import "C"

import (
	"fmt"
	"os"
	"sync"
	"unsafe"
)

//go:noinline
func spin(seed uint64, steps int) uint64 {
	x := seed
	for i := 0; i < steps; i++ {
		x = x*6364136223846793005 + 1442695040888963407
		x ^= x >> 29
	}
	return x
}

//go:noinline
func allocateThroughC(blocks int) int {
	kept := 0
	for i := 0; i < blocks; i++ {
		p := C.malloc(C.size_t(64 + i%512))
		if p != nil {
			*(*byte)(unsafe.Pointer(p)) = byte(i)
			kept++
			C.free(p)
		}
	}
	return kept
}

func main() {
	var wg sync.WaitGroup
	results := make([]uint64, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			results[g] = spin(uint64(g+1), 60000000)
		}(g)
	}
	kept := allocateThroughC(20000)
	wg.Wait()
	var sum uint64
	for _, r := range results {
		sum ^= r
	}
	fmt.Printf("go_workers: %x, %d C blocks\n", sum, kept)
	os.Exit(0)
}
