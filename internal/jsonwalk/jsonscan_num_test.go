package jsonwalk

import (
	"math"
	"strconv"
	"testing"
)

// jsonFloatCases are JSON numbers on both sides of Float's fast path.
var jsonFloatCases = []string{
	"0", "-0", "7.691", "0.29", "85.2", "4100.0000004", "0.0000006", "1e22", "1e23", "9007199254740993",
	"9007199254740992", "123456789012345678", "1234567890123456789012", "0.1e-22", "1e-23", "2.5E+3",
	"-1.5e-3", "1e400", "-1e400", "1e-400", "4.9e-324", "1.7976931348623157e308", "1.8e308",
	"0.000000000000000000000000000001", "100000000000000000000000", "1e00001", "123.456e-2",
}

func TestJSONFloatMatchesParseFloat(t *testing.T) {
	for _, s := range jsonFloatCases {
		checkJSONFloat(t, s)
	}
}

// checkJSONFloat compares Float with strconv.ParseFloat on the JSON
// number s, followed by a comma as in an object.
func checkJSONFloat(t *testing.T, s string) {
	t.Helper()
	want, err := strconv.ParseFloat(s, 64)
	f, end, ok := Float([]byte(s+","), 0)
	if end != len(s) || ok != (err == nil) || (ok && math.Float64bits(f) != math.Float64bits(want)) {
		t.Fatalf("jsonFloat(%q) = %v, %d, %v; ParseFloat gives %v, %v", s, f, end, ok, want, err)
	}
}

func TestJSONFloatAllocs(t *testing.T) {
	b := []byte(`[7.691,1234567890123456789012,1e-400]`)
	allocs := testing.AllocsPerRun(100, func() {
		for _, i := range []int{1, 7, 30} {
			if _, _, ok := Float(b, i); !ok && i != 30 {
				t.Fatal("not parsed")
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run", allocs)
	}
}

func FuzzJSONFloat(f *testing.F) {
	for _, s := range jsonFloatCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(s + ",")
		if end, st := NumberEnd(b, 0); st != OK || end != len(s) || len(s) == 0 {
			return // not a JSON number
		}
		checkJSONFloat(t, s)
	})
}
