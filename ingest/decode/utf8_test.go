package decode

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

// TestReplaceInvalidUTF8 checks the replacement by hand-written values and
// that a shared Attrs map is copied, not changed.
func TestReplaceInvalidUTF8(t *testing.T) {
	shared := map[string]string{"a\xff": "x", "b": "y\xc3"}
	ev := schema.Event{Endpoint: "/v1\xff/chat", Model: "m", OtherIDs: []string{"ok", "\xfe\xffid"}, Attrs: shared}
	ReplaceInvalidUTF8(&ev)
	ev.Attrs = ValidAttrs(ev.Attrs)
	want := schema.Event{Endpoint: "/v1\uFFFD/chat", Model: "m", OtherIDs: []string{"ok", "\uFFFDid"},
		Attrs: map[string]string{"a\uFFFD": "x", "b": "y\uFFFD"}}
	if !reflect.DeepEqual(ev, want) {
		t.Errorf("got %+v\nwant %+v", ev, want)
	}
	if _, ok := shared["a\xff"]; !ok || len(shared) != 2 {
		t.Errorf("shared attrs changed: %q", shared)
	}
	valid := schema.Event{Endpoint: "/é", Attrs: shared}
	ReplaceInvalidUTF8(&valid)
	if valid.Endpoint != "/é" {
		t.Errorf("valid text changed: %q", valid.Endpoint)
	}
}

// TestASCIIText checks asciiText against a byte-by-byte test at every
// length to 40 with a non-ASCII byte at every position.
func TestASCIIText(t *testing.T) {
	for n := range 41 {
		b := []byte(strings.Repeat("a", n))
		if !asciiText(string(b)) {
			t.Fatalf("%d ASCII bytes: not ASCII", n)
		}
		for i := range n {
			for _, c := range []byte{0x80, 0xff, 0xc3} {
				b[i] = c
				if asciiText(string(b)) {
					t.Fatalf("%q: ASCII", b)
				}
				b[i] = 'a'
			}
		}
	}
}

func FuzzASCIIText(f *testing.F) {
	f.Add("chatcmpl-285a2103-7606-4464-ab89-c5101ca17e0b")
	f.Add("/v1\xff/chat")
	f.Fuzz(func(t *testing.T, s string) {
		want := true
		for i := range len(s) {
			want = want && s[i] < 0x80
		}
		if got := asciiText(s); got != want {
			t.Fatalf("asciiText(%q) = %v, want %v", s, got, want)
		}
	})
}

// BenchmarkReplaceInvalidUTF8 measures the check on a vLLM span's event
// (all ASCII, nothing to replace: the usual case).
func BenchmarkReplaceInvalidUTF8(b *testing.B) {
	ev := schema.Event{Host: "gpu-1", RequestID: "chatcmpl-285a2103-7606-4464-ab89-c5101ca17e0b",
		TraceID: "7c009c86535400438082d653206ccbee", SpanID: "60d18dc7a5ece9c7", Model: "llama-3.1-8b-instruct"}
	for b.Loop() {
		ReplaceInvalidUTF8(&ev)
	}
}
