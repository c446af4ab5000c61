package analyze

import (
	"fmt"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

// groupEvents are four client requests with TTFT 10, 20, 30, 40 ms over
// models a, a, b, (none) and hosts h1, h2, h1, h1; the last is in region eu,
// and a fifth request (model b, host h2) failed with a server error.
func groupEvents() []schema.Event {
	var evs []schema.Event
	for i, mh := range [][2]string{{"a", "h1"}, {"a", "h2"}, {"b", "h1"}, {"", "h1"}} {
		e := wallEvent(schema.SourceClient, float64(i*1000))
		e.Model, e.Host = mh[0], mh[1]
		e.FirstTokenNs = at(float64(i*1000 + (i+1)*10))
		evs = append(evs, e)
	}
	evs[3].Attrs = map[string]string{"region": "eu"}
	f := wallEvent(schema.SourceClient, 5000)
	f.Model, f.Host, f.Status, f.Error = "b", "h2", ptr(int32(503)), schema.ErrorServer
	return append(evs, f)
}

func TestGroupCrossing(t *testing.T) {
	a := Run(groupEvents(), nil, Options{By: [][]string{{"model"}, {"model", "host"}, {"region"}, {"model"}}})
	var got []string
	for _, m := range a.Metrics {
		if m.Metric == "ttft" {
			got = append(got, fmt.Sprintf("%v n=%d mean=%g", m.Group, m.Count, m.Mean))
		}
	}
	// {}: 10 20 30 40 → mean 25. By model: (none) 40; a 10, 20 → 15; b 30.
	// model+host: (none)/h1 40; a/h1 10; a/h2 20; b/h1 30 (b/h2 only
	// failed: no latency). Region: (none) 10 20 30 → 20; eu 40. The repeated
	// --by model adds nothing ("(" sorts before letters).
	want := []string{
		"map[] n=4 mean=25",
		"map[model:(none)] n=1 mean=40",
		"map[model:a] n=2 mean=15",
		"map[model:b] n=1 mean=30",
		"map[host:h1 model:(none)] n=1 mean=40",
		"map[host:h1 model:a] n=1 mean=10",
		"map[host:h2 model:a] n=1 mean=20",
		"map[host:h1 model:b] n=1 mean=30",
		"map[region:(none)] n=3 mean=20",
		"map[region:eu] n=1 mean=40",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ttft groups:\n got %q\nwant %q", got, want)
	}
	// The failure appears in {}, model b, model b + host h2, region (none).
	var errs []string
	for _, e := range a.Errors {
		errs = append(errs, fmt.Sprintf("%v %s %d", e.Group, e.Class, e.Count))
	}
	wantErrs := []string{
		"map[] server_error 1",
		"map[model:b] server_error 1",
		"map[host:h2 model:b] server_error 1",
		"map[region:(none)] server_error 1",
	}
	if fmt.Sprint(errs) != fmt.Sprint(wantErrs) {
		t.Errorf("errors:\n got %q\nwant %q", errs, wantErrs)
	}
	if fmt.Sprint(a.Options.By) != "[model model+host region model]" {
		t.Errorf("options.by = %q", a.Options.By)
	}
}

func TestGroupValue(t *testing.T) {
	e := schema.Event{Source: "proxy", Format: "nginx", Host: "edge", Model: "m", Endpoint: "/v1/chat/completions",
		Status: ptr(int32(429)), Attrs: map[string]string{"app": "web", "empty": ""}}
	tests := map[string]string{
		"model": "m", "endpoint": "/v1/chat/completions", "host": "edge", "status": "429",
		"format": "nginx", "source": "proxy", "app": "web", "empty": "(none)", "tenant": "(none)",
	}
	for key, want := range tests {
		if got := groupValue(oneEvent(t, e), key); got != want {
			t.Errorf("groupValue(%q) = %q, want %q", key, got, want)
		}
	}
	if got := groupValue(oneEvent(t, schema.Event{}), "status"); got != "(none)" {
		t.Errorf("missing status = %q", got)
	}
}
