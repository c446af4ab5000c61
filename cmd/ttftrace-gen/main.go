// Command ttftrace-gen writes the logs of a simulated LLM serving fleet —
// clients, proxies and servers with skewed clocks — in the formats ttftrace
// reads, for benchmarks and tests:
//
//	go run ./cmd/ttftrace-gen -n 20000 -o bench/data
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/ttftrace/ttftrace/fleet"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ttftrace-gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 2000, "number of requests")
	seed := fs.Uint64("seed", 1, "random seed: the same seed gives the same logs")
	out := fs.String("o", "fleet-logs", "output folder")
	rate := fs.Float64("rate", 4, "mean requests per second")
	tokens := fs.Float64("tokens", 120, "median output tokens per request")
	skew := fs.Duration("skew", 2*time.Second, "largest clock offset of a host")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg := fleet.DefaultConfig(*n)
	cfg.Seed, cfg.Rate, cfg.MeanOut, cfg.MaxSkew = *seed, *rate, *tokens, *skew
	files, err := fleet.Generate(cfg).WriteAll(*out)
	if err != nil {
		fmt.Fprintln(stderr, "ttftrace-gen:", err)
		return 1
	}
	for _, f := range files {
		fmt.Fprintf(stdout, "%s\t%s\t%s\n", f.Name, f.Format, f.Host)
	}
	return 0
}
