package envoy

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/fleet"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// TestEnvoyFleetRecords checks that every record of the fleet's edge-2
// JSON log is read as an event.
func TestEnvoyFleetRecords(t *testing.T) {
	decodetest.AllEvents(t, Format{}, decode.Options{LogFormat: fleet.EnvoyLogFormat}, decodetest.BenchLog(&testing.B{}, "edge-2"))
}

// envoyJSONSeeds are records for the fuzz tests: the edge records, and the
// fleet's first records.
func envoyJSONSeeds() []string {
	seeds := append([]string(nil), envoyEdgeRecords...)
	for _, line := range bytes.SplitN(decodetest.BenchLog(&testing.B{}, "edge-2"), []byte("\n"), 6)[:5] {
		seeds = append(seeds, string(line))
	}
	return seeds
}

// FuzzJSONValidObject checks jsonwalk.ValidObject against json.Valid.
func FuzzJSONValidObject(f *testing.F) {
	for _, rec := range envoyJSONSeeds() {
		f.Add(rec)
	}
	for _, s := range []string{"{", "{}x", "{} \n", `{"a":1`, `{"a":01}`, `{"a":"\x01"}`, `{"a":"\u12"}`, `{"a":[}`, strings.Repeat("[", 10001)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if t := strings.TrimLeft(s, " \t\r\n"); t == "" || t[0] != '{' {
			return
		}
		var stack []byte
		if got, want := jsonwalk.ValidObject([]byte(s), &stack), json.Valid([]byte(s)); got != want {
			t.Fatalf("%q: jsonValidObject %v, json.Valid %v", s, got, want)
		}
	})
}

// FuzzJSONStringEndFast checks jsonwalk.StringEndFast against jsonwalk.StringEnd.
func FuzzJSONStringEndFast(f *testing.F) {
	for _, s := range []string{`"abc"`, `"0123456789abcdef"`, `"0123456\"89"`, "\"01234567\x01\"", `"0123456789`, `"\u00e4bcdefghij"`, `"é"`, `""`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := append([]byte(`"`), s...)
		end, st := jsonwalk.StringEndFast(b, 0)
		wantEnd, wantSt := jsonwalk.StringEnd(b, 0)
		if st != wantSt || st != jsonwalk.Bad && end != wantEnd {
			t.Fatalf("%q: %d %d, jsonStringEnd %d %d", b, end, st, wantEnd, wantSt)
		}
	})
}
