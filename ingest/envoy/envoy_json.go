package envoy

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"unicode/utf8"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// envoyJSONReader is the JSON reader's state for one input: the key→operator
// map compiled, and the slots one record's values go to. A record is walked
// in place, checked as it goes, and read as encoding/json reads it into a
// map[string]json.RawMessage (keys unescaped, invalid UTF-8 in them read as
// U+FFFD, the last of repeated keys kept); its values are put in the order
// of the keys sorted, by the keys' precomputed ranks.
type envoyJSONReader struct {
	envoyReader
	rank  map[string]int // a mapped key's index in keys
	keys  []string       // the mapped keys, sorted
	ops   []*envoyOpPlan // by rank; nil for a key mapped to no single operator
	slots []envoyOpValue // by rank, the record's values
	seen  []uint32       // by rank, the record (rec) that filled the slot
	rec   uint32
	genai []envoyGenAI // the record's gen_ai.* keys that are not mapped
	// last holds the ranks of the previous record's keys in their order (-1
	// for keys not mapped): records mostly repeat the keys of the one before,
	// so the key at the same position is compared before the map is asked.
	last   []int
	member int // the index of the member being read
	vals   []envoyOpValue
	unesc  []byte // unescaped string values of the record
	stack  []byte // scratch for jsonSkip
}

// envoyGenAI is a gen_ai.* key of a record and its value.
type envoyGenAI struct {
	key  []byte
	rank int // the number of mapped keys before it
	envoyOpValue
}

// envoyGenAIOps are the gen_ai.* keys the reader reads when the map
// does not name them (as GENAI operators); other gen_ai.* keys do nothing.
var envoyGenAIOps = func() map[string]*envoyOpPlan {
	m := map[string]*envoyOpPlan{}
	for _, k := range []string{"gen_ai.request.model", "gen_ai.response.model", "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens"} {
		m[k] = compileEnvoyOp(envoyOp{name: "GENAI", arg: k})
	}
	return m
}()

// newEnvoyJSONReader compiles the key→operator map ops (see envoyKeyOps).
func newEnvoyJSONReader(ops map[string]*envoyOp) *envoyJSONReader {
	d := &envoyJSONReader{rank: map[string]int{}}
	for k := range ops {
		d.keys = append(d.keys, k)
	}
	sort.Strings(d.keys)
	for i, k := range d.keys {
		d.rank[k] = i
		var op *envoyOpPlan
		if ops[k] != nil {
			op = compileEnvoyOp(*ops[k])
		}
		d.ops = append(d.ops, op)
	}
	d.slots, d.seen = make([]envoyOpValue, len(d.keys)), make([]uint32, len(d.keys))
	d.missing = d.missingStart
	return d
}

// record decodes one record and reports it to sink. Given a record that
// is not one valid JSON object it reports false, having told sink nothing,
// unless strict is set (the caller may yet join it with the lines after
// it); with strict set JSON null is read as an object with no keys (as
// encoding/json reads it into a map) and anything else is rejected.
func (d *envoyJSONReader) record(in *decode.Input, sink decode.Sink, line int64, raw []byte, strict bool) bool {
	switch {
	case d.read(raw):
		d.emit(in, sink, line, raw, d.vals)
	case !strict:
		return false
	case envoyJSONNull(raw):
		d.emit(in, sink, line, raw, d.vals[:0])
	default:
		sink.Reject(decode.JSONRefusedAt(line, 1, raw), "invalid json", decode.TruncateDetail(string(raw)))
	}
	return true
}

// envoyJSONNull reports whether raw is the JSON literal null.
func envoyJSONNull(raw []byte) bool {
	i := jsonwalk.SkipWS(raw, 0)
	return bytes.HasPrefix(raw[i:], []byte("null")) && jsonwalk.SkipWS(raw, i+4) == len(raw)
}

// read walks the record raw, checking that it is one valid JSON object as
// it goes (one pass instead of json.Valid's and then the walk's), and puts
// its values in d.vals in sorted key order. It reports false for invalid
// JSON.
func (d *envoyJSONReader) read(raw []byte) bool {
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
// returns the index after the value, or -1 when the record is not valid
// JSON. A repeated key replaces the value it had.
func (d *envoyJSONReader) readMember(raw, key []byte, j int) int {
	end := d.valueEnd(raw, j)
	r, key, ok := d.keyRank(key)
	if end < 0 || !ok {
		return -1
	}
	var op *envoyOpPlan
	if r >= 0 {
		d.seen[r], op = d.rec, d.ops[r]
	} else {
		op = envoyGenAIOps[string(key)] // a gen_ai.* key the map does not name
	}
	if op == nil {
		return end
	}
	val := d.value(raw, j, end)
	if r >= 0 {
		d.slots[r] = envoyOpValue{op, val}
		return end
	}
	for k := range d.genai {
		if bytes.Equal(d.genai[k].key, key) {
			d.genai[k].val = val
			return end
		}
	}
	d.genai = append(d.genai, envoyGenAI{key, sort.SearchStrings(d.keys, string(key)), envoyOpValue{op, val}})
	return end
}

// valueEnd checks the JSON value at raw[j] and returns the index after it,
// or -1 when it is not valid. An object or array long enough to nest to
// encoding/json's depth limit is checked with the record around it.
func (d *envoyJSONReader) valueEnd(raw []byte, j int) int {
	end := jsonwalk.ScalarEnd(raw, j, &d.stack)
	if end >= 0 || j >= len(raw) || raw[j] != '{' && raw[j] != '[' {
		return end
	}
	if !jsonwalk.ValidObject(raw, &d.stack) {
		return -1
	}
	return jsonwalk.Skip(raw, j, &d.stack)
}

// keyRank returns the rank of a mapped key, -1 for another key, and the
// key as encoding/json decodes it (escapes undone, invalid UTF-8 made
// U+FFFD); ok is false for a key that is not a valid JSON string.
func (d *envoyJSONReader) keyRank(key []byte) (r int, text []byte, ok bool) {
	i := d.member
	d.member++
	escaped := bytes.IndexByte(key, '\\') >= 0
	if i < len(d.last) && !escaped {
		if r := d.last[i]; r >= 0 && string(key) == d.keys[r] {
			return r, key, true
		}
	}
	text = key
	if escaped || !utf8.Valid(key) {
		if text, ok = jsonwalk.KeyText(key); !ok {
			return 0, nil, false
		}
	}
	r, mapped := d.rank[string(text)]
	if !mapped {
		r = -1
	}
	if i < len(d.last) {
		d.last[i] = r
	} else if i < 64 {
		d.last = append(d.last, r)
	}
	return r, text, true
}

// order puts the record's values in d.vals by key: mapped keys by rank,
// gen_ai.* keys among them.
func (d *envoyJSONReader) order() {
	if len(d.genai) > 1 {
		slices.SortFunc(d.genai, func(a, b envoyGenAI) int { return bytes.Compare(a.key, b.key) })
	}
	d.vals = d.vals[:0]
	g := 0
	for r := range d.slots {
		for ; g < len(d.genai) && d.genai[g].rank == r; g++ {
			d.vals = append(d.vals, d.genai[g].envoyOpValue)
		}
		if d.seen[r] == d.rec && d.ops[r] != nil {
			d.vals = append(d.vals, d.slots[r])
		}
	}
	for ; g < len(d.genai); g++ {
		d.vals = append(d.vals, d.genai[g].envoyOpValue)
	}
}

// value returns the valid value raw[j:end] as decode.JSONString reads it ("-"
// made empty).
func (d *envoyJSONReader) value(raw []byte, j, end int) (val []byte) {
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
