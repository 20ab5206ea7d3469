// go_static.go - a Go program without cgo: built with CGO_ENABLED=0 it is
// statically linked, as most Go servers are, and no preloaded library can
// reach it. Its output depends only on the work.
package main

import "fmt"

func main() {
	x := uint64(1)
	for i := 0; i < 50000000; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	fmt.Printf("go_static: %x\n", x)
}
