package envoy

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// envoyJSONFast is the JSON fast path's state for one input: the key→operator
// map compiled, and the slots one record's values go to. A record is walked
// in place (jsonwalk.Object); its values are put in the general route's order,
// that of the keys sorted, by the keys' precomputed ranks.
type envoyJSONFast struct {
	envoyFast
	rank  map[string]int   // a mapped key's index in keys
	keys  []string         // the mapped keys, sorted
	ops   []*envoyFastOp   // by rank; nil for a key mapped to no single operator
	slots []envoyFastValue // by rank, the record's values
	seen  []uint32         // by rank, the record (rec) that filled the slot
	rec   uint32
	genai []envoyGenAI // the record's gen_ai.* keys that are not mapped
	// last holds the ranks of the previous record's keys in their order (-1
	// for keys not mapped): records mostly repeat the keys of the one before,
	// so the key at the same position is compared before the map is asked.
	last   []int
	member int  // the index of the member being read
	fffd   bool // a mapped key holds U+FFFD, which an invalid UTF-8 key decodes to
	vals   []envoyFastValue
	unesc  []byte // unescaped string values of the record
	stack  []byte // scratch for jsonSkip
}

// envoyGenAI is a gen_ai.* key of a record and its value.
type envoyGenAI struct {
	key  []byte
	rank int // the number of mapped keys before it
	envoyFastValue
}

// envoyGenAIOps are the gen_ai.* keys the general route reads when the map
// does not name them (as GENAI operators); other gen_ai.* keys do nothing.
var envoyGenAIOps = func() map[string]*envoyFastOp {
	m := map[string]*envoyFastOp{}
	for _, k := range []string{"gen_ai.request.model", "gen_ai.response.model", "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens"} {
		m[k] = compileEnvoyOp(envoyOp{name: "GENAI", arg: k})
	}
	return m
}()

// newEnvoyJSONFast compiles the key→operator map ops (see envoyKeyOps).
func newEnvoyJSONFast(ops map[string]*envoyOp) *envoyJSONFast {
	d := &envoyJSONFast{rank: map[string]int{}}
	for k := range ops {
		d.keys = append(d.keys, k)
	}
	sort.Strings(d.keys)
	for i, k := range d.keys {
		d.rank[k] = i
		d.fffd = d.fffd || strings.ContainsRune(k, utf8.RuneError)
		var op *envoyFastOp
		if ops[k] != nil {
			op = compileEnvoyOp(*ops[k])
		}
		d.ops = append(d.ops, op)
	}
	d.slots, d.seen = make([]envoyFastValue, len(d.keys)), make([]uint32, len(d.keys))
	return d
}

// record decodes one record; it reports false, having told sink nothing,
// when the general route must decide. It reads only a valid JSON object (as
// the walk checks), so it may be given a line before it is validated.
func (d *envoyJSONFast) record(in *decode.Input, sink decode.Sink, line int64, raw []byte) bool {
	if !d.read(raw) {
		return false
	}
	return d.emit(in, sink, line, raw, d.vals)
}

// read walks the record raw, checking that it is one valid JSON object as
// it goes (one pass instead of json.Valid's and then the walk's), and puts
// its values in d.vals in sorted key order. It reports false for invalid
// JSON and for what the fast path does not read as json.Unmarshal into a
// map would: escaped keys, invalid UTF-8 keys that may decode to a mapped
// key, repeated keys and values nested deep enough to reach encoding/json's
// depth limit.
func (d *envoyJSONFast) read(raw []byte) bool {
	if d.rec++; d.rec == 0 {
		clear(d.seen)
		d.rec = 1
	}
	d.genai, d.unesc, d.member = d.genai[:0], d.unesc[:0], 0
	i := jsonwalk.SkipWS(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return false
	}
	if i = jsonwalk.SkipWS(raw, i+1); i < len(raw) && raw[i] == '}' {
		d.order()
		return jsonwalk.SkipWS(raw, i+1) == len(raw)
	}
	for i < len(raw) && raw[i] == '"' {
		kEnd, st := jsonwalk.StringEndFast(raw, i)
		if st != jsonwalk.OK {
			return false
		}
		key := raw[i+1 : kEnd-1]
		if i = jsonwalk.SkipWS(raw, kEnd); i >= len(raw) || raw[i] != ':' {
			return false
		}
		end := d.readMember(raw, key, jsonwalk.SkipWS(raw, i+1))
		if end < 0 {
			return false
		}
		switch i = jsonwalk.SkipWS(raw, end); {
		case i < len(raw) && raw[i] == ',':
			i = jsonwalk.SkipWS(raw, i+1)
		case i < len(raw) && raw[i] == '}':
			d.order()
			return jsonwalk.SkipWS(raw, i+1) == len(raw)
		default:
			return false
		}
	}
	return false
}

// readMember reads the member key whose value starts at raw[j], and
// returns the index after the value, or -1 when the record is left to the
// general route.
func (d *envoyJSONFast) readMember(raw, key []byte, j int) int {
	end := jsonwalk.ScalarEnd(raw, j, &d.stack)
	r, ok := d.keyRank(key)
	if end < 0 || !ok {
		return -1
	}
	var op *envoyFastOp
	if r >= 0 {
		if d.seen[r] == d.rec {
			return -1
		}
		d.seen[r], op = d.rec, d.ops[r]
	} else if op = envoyGenAIOps[string(key)]; op != nil {
		for _, g := range d.genai {
			if bytes.Equal(g.key, key) {
				return -1
			}
		}
	}
	if op == nil {
		return end
	}
	val := d.value(raw, j, end)
	if r >= 0 {
		d.slots[r] = envoyFastValue{op, val}
	} else {
		d.genai = append(d.genai, envoyGenAI{key, sort.SearchStrings(d.keys, string(key)), envoyFastValue{op, val}})
	}
	return end
}

// keyRank returns the rank of a mapped key, -1 for another key; ok is false
// for a key json.Unmarshal would read otherwise (escaped, or invalid UTF-8
// that may decode to a mapped key).
func (d *envoyJSONFast) keyRank(key []byte) (r int, ok bool) {
	if bytes.IndexByte(key, '\\') >= 0 {
		return 0, false
	}
	i := d.member
	d.member++
	if i < len(d.last) {
		if r := d.last[i]; r >= 0 && string(key) == d.keys[r] {
			return r, true
		}
	}
	if d.fffd && !utf8.Valid(key) {
		return 0, false
	}
	r, mapped := d.rank[string(key)]
	if !mapped {
		r = -1
	}
	if i < len(d.last) {
		d.last[i] = r
	} else if i < 64 {
		d.last = append(d.last, r)
	}
	return r, true
}

// order puts the record's values in d.vals by key: mapped keys by rank,
// gen_ai.* keys among them.
func (d *envoyJSONFast) order() {
	if len(d.genai) > 1 {
		slices.SortFunc(d.genai, func(a, b envoyGenAI) int { return bytes.Compare(a.key, b.key) })
	}
	d.vals = d.vals[:0]
	g := 0
	for r := range d.slots {
		for ; g < len(d.genai) && d.genai[g].rank == r; g++ {
			d.vals = append(d.vals, d.genai[g].envoyFastValue)
		}
		if d.seen[r] == d.rec && d.ops[r] != nil {
			d.vals = append(d.vals, d.slots[r])
		}
	}
	for ; g < len(d.genai); g++ {
		d.vals = append(d.vals, d.genai[g].envoyFastValue)
	}
}

// value returns the valid value raw[j:end] as decode.JSONString reads it ("-"
// made empty).
func (d *envoyJSONFast) value(raw []byte, j, end int) (val []byte) {
	switch c := raw[j]; {
	case c == '"':
		s := raw[j+1 : end-1]
		if bytes.IndexByte(s, '\\') < 0 && utf8.Valid(s) {
			val = s
			break
		}
		n := len(d.unesc)
		var ok bool
		if d.unesc, ok = jsonwalk.AppendUnescaped(d.unesc, raw[j:end]); !ok {
			d.unesc = append(d.unesc[:n], decode.JSONString(json.RawMessage(raw[j:end]))...)
		}
		val = d.unesc[n:]
	case c == '{' || c == '[' || c == 'n':
	default: // a number, true or false: its text
		val = raw[j:end]
	}
	if len(val) == 1 && val[0] == '-' {
		val = nil
	}
	return val
}
