// Command biglog grows one log of ttftrace-gen into a single large file for
// bench/ingest_scale.sh: it writes the seed's lines over and over, each
// round's timestamps moved one hour later (so no record repeats by chance),
// and copies a few lines again a little later, as a log shipper's retry
// does. It prints on standard error the records those copies repeat, which
// ttftrace ingest must count as duplicates.
//
//	biglog -kind nginx|otlp -seed FILE -bytes N [-retry 0.001] > OUT
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"time"
)

func main() {
	kind := flag.String("kind", "otlp", "seed format: otlp (JSON lines) or nginx (msec= and [time_local])")
	seed := flag.String("seed", "", "log to grow (one of ttftrace-gen's)")
	size := flag.Int64("bytes", 1<<30, "bytes to write")
	retry := flag.Float64("retry", 0.001, "share of lines written again 1 to 5,000 lines later")
	flag.Parse()
	data, err := os.ReadFile(*seed)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	shift := map[string]func([]byte, int64) []byte{"otlp": shiftOTLP, "nginx": shiftNginx}[*kind]
	if shift == nil {
		fmt.Fprintln(os.Stderr, "unknown -kind", *kind)
		os.Exit(2)
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	g := grower{w: w, r: rand.New(rand.NewPCG(1, 2)), retry: *retry, kind: *kind}
	for round := int64(0); g.written < *size; round++ {
		for _, l := range lines {
			g.write(shift(l, round*int64(time.Hour)))
		}
	}
	w.Flush()
	fmt.Fprintf(os.Stderr, "%d bytes, %d lines, %d repeated records\n", g.written, g.lines, g.repeated)
}

// grower writes lines and the shipper-like copies.
type grower struct {
	w                        *bufio.Writer
	r                        *rand.Rand
	retry                    float64
	kind                     string
	recent                   [][]byte // the last 5,000 original lines
	written, lines, repeated int64
}

func (g *grower) write(l []byte) {
	g.emit(l)
	if len(g.recent) == 5000 {
		g.recent = g.recent[1:]
	}
	g.recent = append(g.recent, l)
	if g.r.Float64() < g.retry {
		c := g.recent[g.r.IntN(len(g.recent))]
		g.emit(c)
		g.repeated += g.records(c)
	}
}

func (g *grower) emit(l []byte) {
	g.w.Write(l)
	g.written += int64(len(l))
	g.lines++
}

// records returns the records of line l: its spans, or 1.
func (g *grower) records(l []byte) int64 {
	if g.kind == "otlp" {
		return int64(bytes.Count(l, []byte(`"spanId":`)))
	}
	return 1
}

// shiftOTLP adds d ns to every "…TimeUnixNano":"N" of line l.
func shiftOTLP(l []byte, d int64) []byte {
	out := make([]byte, 0, len(l)+16)
	key := []byte(`TimeUnixNano":"`)
	for {
		i := bytes.Index(l, key)
		if i < 0 {
			return append(out, l...)
		}
		i += len(key)
		j := i + bytes.IndexByte(l[i:], '"')
		n, _ := strconv.ParseInt(string(l[i:j]), 10, 64)
		out = strconv.AppendInt(append(out, l[:i]...), n+d, 10)
		l = l[j:]
	}
}

// shiftNginx moves msec=S.mmm and [time_local] of line l by d ns.
func shiftNginx(l []byte, d int64) []byte {
	out := make([]byte, 0, len(l)+8)
	if i, j := bytes.IndexByte(l, '['), bytes.IndexByte(l, ']'); i >= 0 && j > i {
		const layout = "02/Jan/2006:15:04:05 -0700"
		if t, err := time.Parse(layout, string(l[i+1:j])); err == nil {
			out = append(append(out, l[:i+1]...), t.Add(time.Duration(d)).Format(layout)...)
			l = l[j:]
		}
	}
	if i := bytes.Index(l, []byte("msec=")); i >= 0 {
		i += len("msec=")
		j := i + bytes.IndexAny(l[i:], " \n")
		if f, err := strconv.ParseFloat(string(l[i:j]), 64); err == nil {
			out = strconv.AppendFloat(append(out, l[:i]...), f+float64(d)/1e9, 'f', 3, 64)
			l = l[j:]
		}
	}
	return append(out, l...)
}
