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
// requests are about 58 GB of logs, 1.16 KB a request):
//
//	go run ./cmd/ttftrace-gen -week -n 5000000 -o bench/data/week5m
//
// With -part i/k it writes only the i-th of k parts of the week (the
// requests arriving in its i-th k-th, each with all its lines), so a week
// too large for the disk can be written, ingested and deleted a part at a
// time; -state FILE keeps the simulation's state at the next part's start,
// so part i+1 goes on from where part i stopped instead of simulating the
// week again from its start:
//
//	for i in 1 2 3 4; do
//	  go run ./cmd/ttftrace-gen -week -n 50000000 -part $i/4 -state week.state -o part
//	  ttftrace ingest -o dataset part/*.log part/*.json part/*.jsonl …; rm part/*.log …
//	done
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
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
	part := fs.String("part", "", "i/k: write only the i-th of k parts of a -week (the requests arriving in its i-th k-th)")
	state := fs.String("state", "", "with -part: file holding the week's state at a part's start (read for part i, written for part i+1)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	i, k, err := parsePart(*part)
	if err != nil || (*part != "" && !*week) {
		fmt.Fprintf(stderr, "ttftrace-gen: -part %q: want i/k with 1 ≤ i ≤ k, and -week\n", *part)
		return 2
	}
	var files []fleet.File
	if *week {
		cfg := fleet.DefaultWeek(*n)
		cfg.Seed, cfg.MeanOut, cfg.MaxSkew, cfg.Days = *seed, *tokens, *skew, *days
		cfg.Part, cfg.Parts, cfg.State = i, k, *state
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

// parsePart reads -part's "i/k"; "" is the whole week (0 of 0).
func parsePart(s string) (i, k int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	a, b, ok := strings.Cut(s, "/")
	if i, err = strconv.Atoi(a); err == nil && ok {
		k, err = strconv.Atoi(b)
	}
	if err == nil && (!ok || i < 1 || i > k) {
		err = fmt.Errorf("not i/k with 1 ≤ i ≤ k")
	}
	return i, k, err
}
