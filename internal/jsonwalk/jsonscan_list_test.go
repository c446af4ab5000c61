package jsonwalk

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// listProbe is a struct with a list field of structs, as encoding/json
// fills it from FuzzList's documents.
type listProbe struct {
	A []struct {
		V *int `json:"v"`
		W *int `json:"w"`
	} `json:"a"`
}

// listDoc builds {"a": …, "a": …} from spec: arrays split at '|', elements
// at ',', each element "n" (null), "" ({}) or letters v/w with a digit
// ("v1w2": {"v":1,"w":2}); an array "N" is null.
func listDoc(spec string) string {
	var arrays []string
	for _, a := range strings.Split(spec, "|") {
		if a == "N" {
			arrays = append(arrays, `"a":null`)
			continue
		}
		var elems []string
		for _, e := range strings.Split(a, ",") {
			if e == "n" {
				elems = append(elems, "null")
				continue
			}
			var members []string
			for i := 0; i+1 < len(e); i += 2 {
				members = append(members, `"`+e[i:i+1]+`":`+e[i+1:i+2])
			}
			elems = append(elems, "{"+strings.Join(members, ",")+"}")
		}
		if a == "" {
			elems = nil
		}
		arrays = append(arrays, `"a":[`+strings.Join(elems, ",")+"]")
	}
	return "{" + strings.Join(arrays, ",") + "}"
}

// listRead reads doc's list by List: each element's members applied in
// the order of its sources (null adds nothing to a struct), as "v=1 w=2"
// strings; nil for a document it does not read.
func listRead(doc []byte) []string {
	var l List
	var stack []byte
	var firstLen int
	end := WalkObject(doc, 0, func(_ []byte, j int) int {
		switch {
		case doc[j] == 'n':
			l.Reset()
		case doc[j] == '[' && l.Add(doc, j):
			firstLen = 0
			WalkArray(doc, j, func(e int) int { firstLen++; return Skip(doc, e, &stack) })
		}
		end, _ := SkipDeep(doc, j, &stack)
		return end
	})
	if end < 0 {
		return nil
	}
	var srcs [][]int
	switch {
	case l.N == 1:
		WalkArray(doc, l.First, func(e int) int { srcs = append(srcs, []int{e}); return Skip(doc, e, &stack) })
	case l.N > 1:
		elems, last := l.Elements(doc, func(e int) int { return Skip(doc, e, &stack) })
		srcs = elems[:last]
	}
	out := []string{}
	for _, s := range srcs {
		vals := map[string]string{}
		for _, e := range s {
			WalkObject(doc, e, func(key []byte, j int) int {
				end := Skip(doc, j, &stack)
				if k, _ := FieldIndex(key, []string{"v", "w"}); k >= 0 {
					vals[[]string{"v", "w"}[k]] = string(doc[j:end])
				}
				return end
			})
		}
		out = append(out, "v="+vals["v"]+" w="+vals["w"])
	}
	return out
}

// FuzzList checks List against encoding/json decoding a repeated list key
// into listProbe.
func FuzzList(f *testing.F) {
	for _, s := range []string{"v1", "v1,w2|v3", "v1,v2,v3|n|w4,w5,w6", "v1,v2|N|w3", "v1|", "v1,v2,v3||w1,n,v5|v6", "|n", "v1,v2,v3,v4,v5|w1|w2,n,w3,w4,w5,w6"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		doc := listDoc(spec)
		var p listProbe
		if json.Unmarshal([]byte(doc), &p) != nil {
			return
		}
		want := []string{}
		for _, e := range p.A {
			s := func(v *int) string {
				if v == nil {
					return ""
				}
				return strconv.Itoa(*v)
			}
			want = append(want, "v="+s(e.V)+" w="+s(e.W))
		}
		if got := listRead([]byte(doc)); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: %q, encoding/json %q", doc, got, want)
		}
	})
}
