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
