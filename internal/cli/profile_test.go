package cli

import (
	"slices"
	"testing"
)

// TestCutProfileFlags checks the profiling flags are taken out wherever they
// stand before "--", in both spellings, and everything else kept in order.
func TestCutProfileFlags(t *testing.T) {
	cases := []struct {
		args      []string
		cpu, heap string
		rest      []string
		usage     bool
	}{
		{args: []string{"run", "x", "-o", "out"}, rest: []string{"run", "x", "-o", "out"}},
		{args: []string{"--cpuprofile", "c.prof", "run", "x"}, cpu: "c.prof", rest: []string{"run", "x"}},
		{args: []string{"run", "x", "-memprofile=m.prof", "-o", "out", "-cpuprofile", "c"}, cpu: "c", heap: "m.prof", rest: []string{"run", "x", "-o", "out"}},
		{args: []string{"ingest", "-o", "ds", "--", "--cpuprofile", "c"}, rest: []string{"ingest", "-o", "ds", "--", "--cpuprofile", "c"}},
		{args: []string{"ingest", "-", "-o", "ds"}, rest: []string{"ingest", "-", "-o", "ds"}},
		{args: []string{"formats", "--cpuprofile"}, usage: true},
	}
	for _, tc := range cases {
		p, rest, err := cutProfileFlags(tc.args)
		if tc.usage {
			if _, ok := err.(*usageError); !ok {
				t.Errorf("%q: error %v, want a usage error", tc.args, err)
			}
			continue
		}
		if err != nil || p.CPU != tc.cpu || p.Heap != tc.heap || !slices.Equal(rest, tc.rest) {
			t.Errorf("%q: %+v %q %v; want cpu %q heap %q rest %q", tc.args, p, rest, err, tc.cpu, tc.heap, tc.rest)
		}
	}
}
