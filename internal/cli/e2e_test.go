package cli

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/ttftrace/ttftrace/analyze"
	"github.com/ttftrace/ttftrace/fleet"
)

// quantile7 is numpy's default percentile (linear between closest ranks),
// written again here so the end-to-end test does not trust analyze's.
func quantile7(xs []float64, q float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	h := float64(len(s)-1) * q
	lo := int(math.Floor(h))
	if lo+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
}

// truthFigures computes, from the fleet's truth alone, the per-source
// samples ttftrace should report: client TTFT and e2e over successful
// requests; server TTFT of the vLLM hosts (TGI logs none) and server queue
// time; proxy e2e, which nginx and Envoy log in whole milliseconds.
func truthFigures(f *fleet.Fleet) map[[2]string][]float64 {
	out := map[[2]string][]float64{}
	add := func(source, metric string, ns int64) {
		out[[2]string{source, metric}] = append(out[[2]string{source, metric}], float64(ns)/1e6)
	}
	for i := range f.Requests {
		r := &f.Requests[i]
		if r.Status != 200 {
			continue
		}
		// A stream the user cut is a success for the engine, which finished
		// the tokens it was asked for, and a failure for client and proxy.
		add("server", "queue", r.QueueNs)
		if r.Server.Format == "otlp" {
			add("server", "ttft", r.ServerFirst-r.ServerStart)
		}
		if r.ErrorClass != "" {
			continue
		}
		add("client", "ttft", r.ClientFirst-r.ClientStart)
		add("client", "e2e", r.ClientEnd-r.ClientStart)
		add("proxy", "e2e", r.ProxyEnd-r.ProxyStart)
	}
	return out
}

// TestEndToEndAgainstTruth runs `ttftrace run` on the logs of a simulated
// fleet and checks the figures against the fleet's truth: counts exactly,
// percentiles to the precision each log carries (client JSONL µs, GenAI-Perf
// and OTLP ns, nginx and Envoy whole ms, TGI µs-ish Rust durations).
func TestEndToEndAgainstTruth(t *testing.T) {
	cfg := fleet.DefaultConfig(600)
	cfg.Seed, cfg.MeanOut = 7, 40
	f := fleet.Generate(cfg)
	dir := t.TempDir()
	files, err := f.WriteAll(filepath.Join(dir, "logs"))
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "-q", "-o", filepath.Join(dir, "out"),
		"--log-format", "nginx=" + fleet.NginxLogFormat, "--log-format", "envoy=" + fleet.EnvoyLogFormat}
	for _, file := range files {
		args = append(args, filepath.Join(dir, "logs", file.Name))
	}
	var stdout, stderr bytes.Buffer
	if code := Run(args, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("run exited %d: %s", code, stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "out", "analysis.json"))
	if err != nil {
		t.Fatal(err)
	}
	var a analyze.Analysis
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	tolerance := map[string]float64{"client": 0.002, "server": 0.001, "proxy": 1.0}
	for key, samples := range truthFigures(f) {
		m := findMetric(a.Metrics, key[0], key[1])
		if m == nil {
			t.Errorf("%s %s: missing from analysis.json", key[0], key[1])
			continue
		}
		if m.Count != int64(len(samples)) {
			t.Errorf("%s %s: count %d, truth %d", key[0], key[1], m.Count, len(samples))
		}
		tol := tolerance[key[0]]
		if key == [2]string{"server", "queue"} {
			tol = 0.001 // TGI prints durations with up to 9 significant digits
		}
		for _, p := range []struct {
			q   float64
			got float64
		}{{0.5, m.P50}, {0.9, m.P90}, {0.99, m.P99}} {
			if want := quantile7(samples, p.q); math.Abs(p.got-want) > tol {
				t.Errorf("%s %s p%g: %.4f ms, truth %.4f ms (tolerance %g)", key[0], key[1], p.q*100, p.got, want, tol)
			}
		}
	}
	checkErrorCounts(t, f, a.Errors)
	checkReconciliation(t, f, &a)
}

func findMetric(ms []analyze.Metric, source, metric string) *analyze.Metric {
	for i := range ms {
		if ms[i].Source == source && ms[i].Metric == metric && len(ms[i].Group) == 0 {
			return &ms[i]
		}
	}
	return nil
}

// checkErrorCounts compares the client's failed requests by class with the
// truth: 429s at the proxy, 500s from the engine, streams the user cut.
func checkErrorCounts(t *testing.T, f *fleet.Fleet, errs []analyze.ErrorCount) {
	t.Helper()
	want := map[string]int64{}
	for _, r := range f.Requests {
		if r.ErrorClass != "" {
			want[r.ErrorClass]++
		}
	}
	got := map[string]int64{}
	for _, e := range errs {
		if e.Source == "client" && len(e.Group) == 0 {
			got[e.Class] = e.Count
		}
	}
	for class, n := range want {
		if got[class] != n {
			t.Errorf("client %s: %d failed requests, truth %d", class, got[class], n)
		}
	}
}

// checkReconciliation compares the joins and clock offsets with the truth:
// every client request the proxy saw should be joined to it, and every
// host's true offset (its clock minus the reference's) must lie inside the
// interval reported for it.
func checkReconciliation(t *testing.T, f *fleet.Fleet, a *analyze.Analysis) {
	t.Helper()
	for _, m := range a.Matching {
		if m.Outer == "client" && m.Inner == "proxy" {
			// Every client request went through a proxy.
			if rate := float64(m.Matched) / float64(len(f.Requests)); rate < 0.99 {
				t.Errorf("client/proxy: %d of %d joined (%.1f%%): %+v", m.Matched, len(f.Requests), 100*rate, m)
			}
		}
	}
	hosts := map[string]int64{}
	for _, h := range f.Hosts {
		hosts[h.Name] = h.OffsetNs
	}
	for _, o := range a.ClockOffsets {
		truth := float64(hosts[o.Host]-hosts[o.Reference]) / 1e6
		if truth < o.LowMs || truth > o.HighMs {
			t.Errorf("offset of %s against %s: truth %.3f ms outside [%.3f, %.3f] (estimate %.3f)", o.Host, o.Reference, truth, o.LowMs, o.HighMs, o.OffsetMs)
		}
	}
}
