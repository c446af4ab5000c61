package fleet

import (
	"bytes"
	"testing"
)

// TestTruthAddsUp checks the simulation's own bookkeeping: client TTFT is the
// sum of the path's parts, instants are ordered, and the same seed gives the
// same logs.
func TestTruthAddsUp(t *testing.T) {
	f := Generate(DefaultConfig(500))
	var ok, limited int
	for _, r := range f.Requests {
		if r.Server == nil {
			limited++
			continue
		}
		if r.ClientFirst == 0 {
			continue
		}
		ok++
		parts := (r.ProxyStart - r.ClientStart) + (r.ServerStart - r.ProxyStart) +
			r.OtherNs + r.QueueNs + r.PrefillNs + r.ReturnNs
		if got := r.ClientFirst - r.ClientStart; got != parts {
			t.Fatalf("request %d: client TTFT %d != parts %d", r.Index, got, parts)
		}
		if !(r.ClientStart < r.ProxyStart && r.ProxyStart < r.ServerStart && r.ServerFirst <= r.ServerLast &&
			r.ServerLast < r.ServerEnd && r.ServerEnd < r.ProxyEnd && r.ProxyEnd < r.ClientEnd) {
			t.Fatalf("request %d: instants out of order: %+v", r.Index, r)
		}
		ct := r.ClientChunkTimes()
		if len(ct) != r.OutputTokens {
			t.Fatalf("request %d: %d chunks for %d tokens", r.Index, len(ct), r.OutputTokens)
		}
		if ct[0] != r.ClientFirst || ct[len(ct)-1] >= r.ClientEnd {
			t.Fatalf("request %d: chunks [%d, %d] outside first %d, end %d", r.Index, ct[0], ct[len(ct)-1], r.ClientFirst, r.ClientEnd)
		}
	}
	if ok < 450 || limited == 0 {
		t.Fatalf("unexpected mix: %d streamed, %d rate limited of 500", ok, limited)
	}
	var a, b bytes.Buffer
	h, _ := f.Host("edge-1")
	if err := f.WriteHost(&a, h); err != nil {
		t.Fatal(err)
	}
	g := Generate(DefaultConfig(500))
	h2, _ := g.Host("edge-1")
	if err := g.WriteHost(&b, h2); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) || a.Len() == 0 {
		t.Fatal("same seed gave different nginx logs")
	}
}

// TestShape checks a uniform fleet: its hosts, and each share drawn near
// what it asks (4000 requests: a binomial share p is within 4·√(p(1−p)/n)
// of p but for a chance of about 1e-4), and direct requests in no proxy's
// log.
func TestShape(t *testing.T) {
	cfg := DefaultConfig(4000)
	cfg.NoIDShare = 0.1
	cfg.Shape = &Shape{Clients: 3, Proxies: 2, Servers: 5, LimitedShare: 0.1, DirectShare: 0.2, TraceShare: 0.5}
	f := Generate(cfg)
	if len(f.Hosts) != 10 || f.Hosts[0].Name != "web-1" || f.Hosts[3].Format != "nginx" || f.Hosts[9].Name != "gpu-5" {
		t.Fatalf("hosts %v", f.Hosts)
	}
	var limited, direct, withID, traced, served int
	for _, r := range f.Requests {
		switch {
		case r.Server == nil:
			limited++
		case r.Proxy == nil:
			direct++
		}
		served += boolInt(r.Server != nil)
		withID += boolInt(r.RequestID != "")
		traced += boolInt(r.TraceID != "")
	}
	near := func(name string, got, n int, p float64) {
		if d := float64(got)/float64(n) - p; d*d > 16*p*(1-p)/float64(n) {
			t.Errorf("%s: %d of %d, want a share near %.2f", name, got, n, p)
		}
	}
	near("rate limited", limited, len(f.Requests), 0.1)
	near("direct", direct, served, 0.2)
	near("with an id", withID, len(f.Requests), 0.9)
	near("traced", traced, withID, 0.5)
	logged := len(f.Logged(f.Hosts[3])) + len(f.Logged(f.Hosts[4]))
	if logged != len(f.Requests)-direct {
		t.Errorf("the proxies log %d requests, want %d of %d (%d direct)", logged, len(f.Requests)-direct, len(f.Requests), direct)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
