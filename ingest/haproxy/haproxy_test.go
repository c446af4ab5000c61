package haproxy

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/schema"
)

// TestHAProxyInstants checks the instants of hand-written lines.
// 23/Nov/2026:10:00:00.123 UTC is 1795428000.123 s since the epoch.
func TestHAProxyInstants(t *testing.T) {
	const start = int64(1795428000123000000)
	const head = "10.1.0.5:51234 [23/Nov/2026:10:00:00.123] fe be/srv "
	cases := []struct {
		name, tail     string
		headers, end   int64 // ns after start; -1 = nil
		queue, connect int64 // ns; -1 = nil
		class          string
		completed      string // "true", "false" or "nil"
	}{
		// headers = TR+Tw+Tc+Tr = 2+15+3+85 = 105 ms; end = Ta = 4120 ms.
		{"1.7 timers", `2/15/3/85/4120 200 9 - - ---- 1/1/1/1/0 0/0 "POST /v1/chat/completions HTTP/1.1"`, 105e6, 4120e6, 15e6, 3e6, "", "true"},
		// pre-1.7 Tq/Tw/Tc/Tr/Tt, the manual's example: 10+0+30+69 = 109 ms, Tt = 109 ms.
		{"pre-1.7 timers", `10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu} {} "GET /index.html HTTP/1.1"`, 109e6, 109e6, 0, 30e6, "", "true"},
		// logasap: Ta = +95 is when the log was written, not the end.
		{"logasap", `1/0/2/90/+95 200 +1523 - - ---- 1/1/1/1/0 0/0 "POST /v1/chat/completions HTTP/1.1"`, 93e6, -1, 0, 2e6, "", "nil"},
		// Tr = -1: the server never sent headers; s = server-side timeout.
		{"server timeout", `0/0/1/-1/60002 504 194 - - sH-- 1/1/1/1/0 0/0 "POST /v1/completions HTTP/1.1"`, -1, 60002e6, 0, 1e6, schema.ErrorTimeout, "false"},
		{"client abort", `0/0/1/120/880 200 5120 - - CD-- 1/1/1/1/0 0/0 "POST /v1/chat/completions HTTP/1.1"`, 121e6, 880e6, 0, 1e6, schema.ErrorInterrupted, "false"},
		{"never queued", `0/-1/-1/-1/3 503 217 - - SC-- 1/1/1/0/3 0/0 "POST /v1/chat/completions HTTP/1.1"`, -1, 3e6, -1, -1, schema.ErrorServer, "false"},
		{"rate limited", `0/0/1/20/25 429 80 - - ---- 1/1/1/1/0 0/0 "POST /v1/chat/completions HTTP/1.1"`, 21e6, 25e6, 0, 1e6, schema.ErrorRateLimited, "false"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev, skip, reason, _ := haproxyEvent(head+c.tail, time.UTC)
			if ev == nil {
				t.Fatalf("skip %q reject %q", skip, reason)
			}
			if *ev.StartNs != start {
				t.Errorf("start %d", *ev.StartNs)
			}
			decodetest.CheckOffset(t, "headers", ev.HeadersNs, start, c.headers)
			decodetest.CheckOffset(t, "end", ev.EndNs, start, c.end)
			decodetest.CheckOffset(t, "queue", ev.QueueNs, 0, c.queue)
			decodetest.CheckOffset(t, "connect", ev.ConnectNs, 0, c.connect)
			got := "nil"
			if ev.Completed != nil {
				got = map[bool]string{true: "true", false: "false"}[*ev.Completed]
			}
			if ev.Error != c.class || got != c.completed {
				t.Errorf("class %q completed %s, want %q %s", ev.Error, got, c.class, c.completed)
			}
		})
	}
}

// TestHAProxyTZ checks that the zone-less date is read in decode.Options.TZ:
// 10:00:00.123 in New York (EST, UTC-5, on 23 Nov) is 15:00:00.123 UTC,
// 1795428000.123 + 5*3600 = 1795446000.123 s.
func TestHAProxyTZ(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no tz database:", err)
	}
	line := `10.1.0.5:51234 [23/Nov/2026:10:00:00.123] fe be/srv 0/0/0/1/2 200 9 - - ---- 1/1/1/1/0 0/0 "GET / HTTP/1.1"` + "\n"
	rec := &decodetest.Recorder{}
	if err := (Format{}).Decode(&decode.Input{R: strings.NewReader(line), Opts: decode.Options{TZ: ny}}, rec); err != nil || len(rec.Events) != 1 {
		t.Fatalf("%v %+v", err, rec)
	}
	if got := *rec.Events[0].Event.StartNs; got != 1795446000123000000 {
		t.Errorf("start %d", got)
	}
}

// TestHAProxyIDs checks the unique id and trace id sources.
func TestHAProxyIDs(t *testing.T) {
	const head = `10.1.0.5:51234 [23/Nov/2026:10:00:00.123] fe be/srv 0/0/0/1/2 200 9 - - ---- 1/1/1/1/0 0/0 `
	cases := []struct{ tail, rid, tid string }{
		{`"GET / HTTP/1.1" 7f8e9d`, "7f8e9d", ""},
		{`{00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01} "GET / HTTP/1.1"`, "", "4bf92f3577b34da6a3ce929d0e0e4736"},
		{`{app|9F1C2D3E-0000-4000-8000-000000000001} {} "GET / HTTP/1.1"`, "9F1C2D3E-0000-4000-8000-000000000001", ""},
		{`{9f1c2d3e-0000-4000-8000-000000000001} "GET / HTTP/1.1" uid-1`, "uid-1", ""},
		{`"GET / HTTP/1.1" -`, "", ""},
	}
	for _, c := range cases {
		ev, _, _, _ := haproxyEvent(head+c.tail, time.UTC)
		if ev == nil || ev.RequestID != c.rid || ev.TraceID != c.tid {
			t.Errorf("%s: %+v", c.tail, ev)
		}
	}
}

func TestHAProxySniff(t *testing.T) {
	yes := `Feb  1 18:34:10 localhost haproxy[42471]: 73.18.215.121:50886 [01/Feb/2018:18:34:10.200] fe be/s 0/0/0/121/122 200 938 - - --VN 4/4/3/3/0 0/0 "GET / HTTP/1.1"` + "\n"
	no := []string{
		`[2019-03-06T09:31:27.354Z] "GET /status/418 HTTP/1.1" 418 - "-" 0 135 11 10 "-"` + "\n",
		`127.0.0.1 - - [23/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 12 "-" "curl"` + "\n",
		`10.0.1.2:33313 [06/Feb/2009:12:12:51.443] fnt bck/srv1 34/56/5007 212 -- 1/3/6/8/13 15/17` + "\n",
	}
	if !(Format{}).Sniff([]byte(yes)) || !(Format{}).Sniff([]byte(strings.TrimSuffix(yes, "\n"))) {
		t.Error("httplog line not sniffed")
	}
	for _, s := range no {
		if (Format{}).Sniff([]byte(s)) {
			t.Errorf("wrongly sniffed: %s", s)
		}
	}
}

func FuzzHAProxy(f *testing.F) {
	decodetest.SeedFuzz(f, "testdata")
	f.Fuzz(func(t *testing.T, data []byte) {
		decodetest.FuzzDecode(t, Format{}, decode.Options{}, data)
		rec := &decodetest.Recorder{}
		if err := (Format{}).Decode(&decode.Input{R: bytes.NewReader(data)}, rec); err == nil && rec.Total() != decodetest.LineCount(data) {
			t.Fatalf("%d lines, %d records reported", decodetest.LineCount(data), rec.Total())
		}
	})
}
