// Command ttftrace-gen writes the logs of a simulated LLM serving fleet —
// clients, proxies and servers with skewed clocks — in the formats ttftrace
// reads, for benchmarks and tests:
//
//	go run ./cmd/ttftrace-gen -n 20000 -o bench/data
//
// With -week it writes a production week instead: gateways (nginx with a
// custom log_format, Envoy JSON) and engines (vLLM OTLP spans, TGI router
// logs) only, no client logs, the requests spread over seven days with a
// daily rhythm, streamed to the files in constant memory (50 million
// requests are about 24 GB of logs):
//
//	go run ./cmd/ttftrace-gen -week -n 5000000 -o bench/data/week5m
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
	week := fs.Bool("week", false, "a production week: gateways and engines only, over -days days, streamed (ignores -rate)")
	days := fs.Int("days", 7, "days of a -week")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var files []fleet.File
	var err error
	if *week {
		cfg := fleet.DefaultWeek(*n)
		cfg.Seed, cfg.MeanOut, cfg.MaxSkew, cfg.Days = *seed, *tokens, *skew, *days
		files, err = fleet.WriteWeek(*out, cfg)
	} else {
		cfg := fleet.DefaultConfig(*n)
		cfg.Seed, cfg.Rate, cfg.MeanOut, cfg.MaxSkew = *seed, *rate, *tokens, *skew
		files, err = fleet.Generate(cfg).WriteAll(*out)
	}
	if err != nil {
		fmt.Fprintln(stderr, "ttftrace-gen:", err)
		return 1
	}
	for _, f := range files {
		fmt.Fprintf(stdout, "%s\t%s\t%s\n", f.Name, f.Format, f.Host)
	}
	return 0
}
