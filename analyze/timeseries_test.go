package analyze

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ttftrace/ttftrace/schema"
)

func TestAutoWindow(t *testing.T) {
	tests := []struct {
		span, want time.Duration
	}{
		{0, time.Second},
		{59 * time.Second, time.Second},        // 59 windows of 1 s
		{61 * time.Second, 5 * time.Second},    // 1 s would give 61
		{time.Hour, time.Minute},               // exactly 60 windows
		{2 * time.Hour, 5 * time.Minute},       // 2 min per window rounds up to 5 min
		{7 * time.Hour, 10 * time.Minute},      // 7 min → 10 min
		{12 * time.Hour, 15 * time.Minute},     // 12 min → 15 min
		{24 * time.Hour, 30 * time.Minute},     // 24 min → 30 min
		{2 * 24 * time.Hour, time.Hour},        // 48 min → 1 h
		{3 * 24 * time.Hour, 6 * time.Hour},    // 72 min → 6 h
		{7 * 24 * time.Hour, 6 * time.Hour},    // 2.8 h → 6 h
		{30 * 24 * time.Hour, 24 * time.Hour},  // 12 h → 1 d
		{120 * 24 * time.Hour, 48 * time.Hour}, // 2 d per window
	}
	for _, tt := range tests {
		if got := autoWindow(tt.span); got != tt.want {
			t.Errorf("autoWindow(%s) = %s, want %s", tt.span, got, tt.want)
		}
	}
	for d, want := range map[time.Duration]string{time.Hour: "1h", 90 * time.Second: "90s",
		24 * time.Hour: "1d", 15 * time.Minute: "15m", 1500 * time.Millisecond: "1.5s"} {
		if got := formatWindow(d); got != want {
			t.Errorf("formatWindow(%s) = %q, want %q", d, got, want)
		}
	}
}

// seriesEvents are three client requests over two 10 s windows:
// A [2 s, 8 s], chunks at +1 s (2 tokens) and +7 s (3 tokens), ttft 1000 ms;
// B [5 s, 15 s], no chunks, 10 output tokens, no first token;
// C [12 s, 13 s], failed with a server error.
func seriesEvents() []schema.Event {
	a := wallEvent(schema.SourceClient, 2000)
	a.EndNs, a.ChunkOffsetsNs, a.ChunkTokens = at(8000), offsets(1000, 7000), []int32{2, 3}
	b := wallEvent(schema.SourceClient, 5000)
	b.EndNs, b.OutputTokens = at(15000), ptr(int64(10))
	c := wallEvent(schema.SourceClient, 12000)
	c.EndNs, c.Status, c.Error = at(13000), ptr(int32(500)), schema.ErrorServer
	return []schema.Event{a, b, c}
}

func TestTimeseries(t *testing.T) {
	a := Run(seriesEvents(), nil, Options{Window: 10 * time.Second, SLO: map[string]float64{"ttft": 1500}})
	got := map[string]string{}
	for _, s := range a.Timeseries {
		if s.Window != "10s" || s.Source != "client" || len(s.Points) != 2 ||
			s.Points[0].T != "2026-11-23T10:00:00Z" || s.Points[1].T != "2026-11-23T10:00:10Z" {
			t.Errorf("%s: window %s, points %+v", s.Metric, s.Window, s.Points)
		}
		got[s.Metric] = fmt.Sprintf("%s %s", pointString(s.Points[0]), pointString(s.Points[1]))
	}
	want := map[string]string{
		// ttft: A 1000 ms in window 0; B has no first token; C failed.
		"ttft": "n=1 p50=1000 p99=1000 n=0",
		// itl: A gap 6000 ms over a 3-token chunk → 3 samples of 2000.
		"itl": "n=3 p50=2000 p99=2000 n=0",
		// requests started: A, B in window 0 (2/10 s); C in window 1 (1/10 s).
		"request_rate": "n=2 v=0.2 n=1 v=0.1",
		// tokens: A's 2 at 3 s and 3 at 9 s in window 0 → 5/10 s; B's 10 at
		// its end, 15 s, in window 1 → 1 token/s.
		"output_tps": "n=5 v=0.5 n=10 v=1",
		// in flight: window 0: A 6 s + B 5 s = 11 s / 10 s = 1.1; window 1:
		// B 5 s + C 1 s = 6 s / 10 s = 0.6.
		"concurrency": "n=2 v=1.1 n=2 v=0.6",
		// failed/started: 0/2 and 1/1.
		"error_rate":              "n=0 v=0 n=1 v=1",
		"error_rate.server_error": "n=0 v=0 n=1 v=1",
		// SLO ttft ≤ 1500: A meets it; B has no ttft, so it does not; C failed.
		"goodput": "n=1 v=0.1 n=0 v=0",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("series:\n got %v\nwant %v", got, want)
	}
	var order []string
	for _, s := range a.Timeseries {
		order = append(order, s.Metric)
	}
	if fmt.Sprint(order) != "[ttft itl request_rate output_tps concurrency error_rate error_rate.server_error goodput]" {
		t.Errorf("series order %v", order)
	}
}

// pointString prints a point's count and whichever figures it has.
func pointString(p Point) string {
	s := fmt.Sprintf("n=%d", p.Count)
	if p.P50 != nil {
		s += fmt.Sprintf(" p50=%.6g p99=%.6g", *p.P50, *p.P99)
	}
	if p.Value != nil {
		s += fmt.Sprintf(" v=%.6g", *p.Value)
	}
	return s
}

func TestTimeseriesEmptyWindowsAndClocks(t *testing.T) {
	// Requests at 0 s and 35 s, each 1 s long: 10 s windows 0…3, windows 1
	// and 2 empty. A relative-clock event is left out, with a note.
	x := wallEvent(schema.SourceClient, 0)
	x.FirstTokenNs, x.EndNs = at(100), at(1000)
	y := wallEvent(schema.SourceClient, 35000)
	y.FirstTokenNs, y.EndNs = at(35300), at(36000)
	r := schema.Event{Source: schema.SourceClient, Format: "vllm-bench", Clock: schema.ClockRelative,
		StartNs: ptr(int64(0)), FirstTokenNs: ptr(int64(50e6)), EndNs: ptr(int64(1e9))}
	a := Run([]schema.Event{x, y, r}, nil, Options{Window: 10 * time.Second})
	var ttft, rate []string
	for _, s := range a.Timeseries {
		for _, p := range s.Points {
			switch s.Metric {
			case "ttft":
				ttft = append(ttft, pointString(p))
			case "request_rate":
				rate = append(rate, pointString(p))
			}
		}
	}
	if fmt.Sprint(ttft) != "[n=1 p50=100 p99=100 n=0 n=0 n=1 p50=300 p99=300]" {
		t.Errorf("ttft points %q", ttft)
	}
	if fmt.Sprint(rate) != "[n=1 v=0.1 n=0 v=0 n=0 v=0 n=1 v=0.1]" {
		t.Errorf("request_rate points %q", rate)
	}
	// The relative event still counts for latency: ttft 100, 300, 50.
	checkStats(t, metricOf(t, a, "client", "ttft", nil), 3, 150, 50, 100, 260, 300)
	want := "1 events of format vllm-bench use a relative clock: they never join with other sources and are left out of the time series"
	if len(a.Notes) != 1 || a.Notes[0] != want {
		t.Errorf("notes %q", a.Notes)
	}
}

func TestWindowTooSmall(t *testing.T) {
	// A span of 1 h at 1 ms windows would be 3.6 million windows: the
	// automatic window (1 min for 1 h) is used instead, with a note.
	x, y := wallEvent("client", 0), wallEvent("client", 3_600_000)
	a := Run([]schema.Event{x, y}, nil, Options{Window: time.Millisecond})
	if a.Options.Window != "1m" || len(a.Timeseries) == 0 || len(a.Timeseries[0].Points) != 61 {
		t.Errorf("window %q, %d series", a.Options.Window, len(a.Timeseries))
	}
	if len(a.Notes) != 1 {
		t.Errorf("notes %q", a.Notes)
	}
}

func TestBadInstants(t *testing.T) {
	// Starts at −6e18 and +6e18 ns: their difference overflows int64, so
	// there is no grid; an event without a start gives no latency; a huge
	// chunk token count is capped rather than exhausting memory.
	x := schema.Event{Source: "client", Clock: schema.ClockWall, StartNs: ptr(int64(-6e18)), EndNs: ptr(int64(-6e18 + 1e9))}
	y := schema.Event{Source: "client", Clock: schema.ClockWall, StartNs: ptr(int64(6e18)),
		ChunkOffsetsNs: offsets(10, 20), ChunkTokens: []int32{1, math.MaxInt32}}
	z := schema.Event{Source: "client", Clock: schema.ClockWall, FirstTokenNs: ptr(int64(5))}
	a := Run([]schema.Event{x, y, z}, nil, Options{Window: time.Second})
	if len(a.Timeseries) != 0 || a.Options.Window != "" {
		t.Errorf("%d series, window %q", len(a.Timeseries), a.Options.Window)
	}
	want := []string{
		"1 client events have no start instant: they count as requests and failures but give no latency figure",
		"the wall-clock instants span more than 292 years: no time series",
	}
	if fmt.Sprint(a.Notes) != fmt.Sprint(want) {
		t.Errorf("notes %q", a.Notes)
	}
	// y's second chunk: gap 10 ms over min(2³¹−1, 65536) tokens.
	if m := metricOf(t, a, "client", "itl", nil); m.Count != maxWeight || !near(m.Max, 10.0/maxWeight) {
		t.Errorf("itl count %d max %g", m.Count, m.Max)
	}
}

// TestPercentilePointsOrder checks that the values order places give
// Quantile, bit for bit, what sorting the samples gives, for window-sized
// samples with repeats or distinct, and with NaN or −0 (which it sorts
// instead).
func TestPercentilePointsOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{1, 2, 3, 10, 101, 5000, 30_001} {
		for _, odd := range []float64{0, math.NaN(), math.Copysign(0, -1), 1} {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = float64(rng.IntN(n/2+1)) / 3
				if odd == 1 { // distinct values: the one above the median's matters
					xs[i] = rng.Float64() * 1e3
				}
				if i == n/2 && odd != 1 && (odd != 0 || math.IsNaN(odd) || math.Signbit(odd)) {
					xs[i] = odd
				}
			}
			want := slices.Clone(xs)
			slices.Sort(want)
			var pp percentilePoints
			pp.order(xs, 0.5, 0.99)
			for _, q := range []float64{0.5, 0.99} {
				got, _ := Quantile(xs, q)
				w, _ := Quantile(want, q)
				if math.Float64bits(got) != math.Float64bits(w) && !(math.IsNaN(got) && math.IsNaN(w)) {
					t.Fatalf("n=%d, odd %v, q %v: %v, sorting gives %v", n, odd, q, got, w)
				}
			}
		}
	}
}
