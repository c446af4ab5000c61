// Command ttftrace analyses LLM serving latency from the logs that clients,
// proxies and inference servers already write. See README.md.
package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/ttftrace/ttftrace/internal/cli"
)

func main() {
	stop := startProfile(os.Getenv("TTFTRACE_CPUPROFILE"))
	status := cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(status)
}

// startProfile writes a CPU profile of the whole command to path (the
// TTFTRACE_CPUPROFILE environment variable, for bench/ and `go tool pprof`)
// and returns the function that ends it. An empty path profiles nothing.
func startProfile(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "ttftrace: TTFTRACE_CPUPROFILE: %v\n", err)
		return func() {}
	}
	return func() { pprof.StopCPUProfile(); f.Close() }
}
