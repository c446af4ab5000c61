package analyze

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

func TestEncodeDecodeRoundTrip(t *testing.T) {
	evs := []struct{ start, first, end float64 }{{0, 120, 900}, {10, 300, 2000}}
	var events []schema.Event
	for _, x := range evs {
		e := wallEvent("server", 0)
		e.StartNs, e.FirstTokenNs, e.EndNs = at(x.start), at(x.first), at(x.end)
		events = append(events, e)
	}
	a := Run(events, nil, Options{})
	b, err := Encode(a)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Encode(back)
	if !bytes.Equal(b, again) || b[len(b)-1] != '\n' {
		t.Error("Encode(Decode(Encode(a))) differs from Encode(a)")
	}
	if m := metricOf(t, back, "server", "ttft", nil); m.Count != 2 || m.Max != 290 {
		t.Errorf("ttft after the round trip: %+v", m)
	}
}

func TestDecodeRefuses(t *testing.T) {
	for doc, want := range map[string]string{
		`{"schema_version": 2}`: "schema_version 2, this ttftrace reads 1",
		`[1, 2]`:                "not an analysis.json",
	} {
		if _, err := Decode([]byte(doc)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Decode(%s) = %v, want %q", doc, err, want)
		}
	}
}
