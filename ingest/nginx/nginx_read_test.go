package nginx

import (
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/fleet"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// TestNginxFleetLines checks that every line of the fleet's edge-1 log is
// read as an event.
func TestNginxFleetLines(t *testing.T) {
	decodetest.AllEvents(t, Format{}, decode.Options{LogFormat: fleet.NginxLogFormat}, decodetest.BenchLog(&testing.B{}, "edge-1"))
}

// nginxValid is what nginxValidBytes reads, as first written over strings:
// the reference FuzzNginxValid checks against.
func nginxValid(k nginxValueKind, v string) bool {
	switch k {
	case nginxNumber:
		return v == "-" || v != "" && strings.Trim(v, "0123456789.") == "" && strings.Count(v, ".") <= 1
	case nginxTimeLocalValue:
		return len(v) == 26 && v[2] == '/' && v[6] == '/' && v[11] == ':' && v[20] == ' '
	case nginxToken:
		return v != "" && !strings.ContainsAny(v, " \"")
	case nginxList:
		return nginxValidList(v)
	}
	for i := 0; i < len(v); i++ {
		if v[i] == '"' && !nginxEscapedAt(v, i) {
			return false
		}
	}
	return true
}

// nginxValidList reports whether v is a list of upstream values: non-empty
// items without spaces or commas, joined by ", " or " : ".
func nginxValidList(v string) bool {
	for _, group := range strings.Split(v, " : ") {
		for _, item := range strings.Split(group, ", ") {
			if item == "" || strings.ContainsAny(item, " ,\"") {
				return false
			}
		}
	}
	return true
}

// FuzzNginxValid checks nginxValidBytes against nginxValid for every kind.
func FuzzNginxValid(f *testing.F) {
	for _, s := range []string{"-", "12.5", "1.2.3", "", "23/Nov/2026:10:00:05 +0000", "a b", `a\"b"`, `x"`,
		"0.1, 0.2 : -", "a,b", "a, : b", " : a", "a, ", "a : : b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		for k := nginxAnyText; k <= nginxList; k++ {
			if got, want := nginxValidBytes(k, []byte(v)), nginxValid(k, v); got != want {
				t.Fatalf("kind %d, %q: bytes %v, reference %v", k, v, got, want)
			}
		}
	})
}

// nginxSecondsReference is nginxSeconds as first written (strings.Cut and
// a digit check per part), the reference FuzzNginxSeconds checks against.
func nginxSecondsReference(s string) (ns int64, ok bool, err error) {
	if s == "" || s == "-" {
		return 0, false, nil
	}
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(whole) > 10 || len(frac) > 9 {
		return 0, false, errNginxSeconds
	}
	for _, part := range []string{whole, frac} {
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				return 0, false, errNginxSeconds
			}
		}
	}
	for i := 0; i < len(whole); i++ {
		ns = ns*10 + int64(whole[i]-'0')
	}
	if ns > 9e9 {
		return 0, false, errNginxSeconds
	}
	ns *= 1e9
	scale := int64(1e8)
	for i := 0; i < len(frac); i++ {
		ns += int64(frac[i]-'0') * scale
		scale /= 10
	}
	return ns, true, nil
}

func FuzzNginxSeconds(f *testing.F) {
	for _, s := range []string{"", "-", "0", "12.345", "12.", ".5", "1.2.3", "9999999999.999", "9000000001", "12345678901", "1.1234567890", "+1", "1e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ns, ok, err := nginxSeconds(s)
		ns2, ok2, err2 := nginxSecondsReference(s)
		if ns != ns2 || ok != ok2 || err != err2 {
			t.Fatalf("%q: %d %v %v, reference %d %v %v", s, ns, ok, err, ns2, ok2, err2)
		}
	})
}
