package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/internal/textscan"
)

// runVariant ingests data, written as a file named base in a fresh folder,
// as format f (named, or sniffed when sniff is set) and returns the result
// with the file's path blanked so two copies of one input compare equal.
func runVariant(t *testing.T, f Format, path string, data []byte, sniff bool) *Result {
	t.Helper()
	name := writeFile(t, filepath.Join(t.TempDir(), filepath.Base(path)), data)
	opts := DriverOptions{Format: f.Name(), Options: decodetest.Opts(t, path), Host: "h", BlockBytes: 4 << 10}
	if sniff {
		opts.Format = ""
	}
	res, err := Run([]string{name}, opts)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for i := range res.Events {
		res.Events[i].InputFile = ""
	}
	for i := range res.Rejects {
		res.Rejects[i].File = ""
	}
	for i := range res.Inputs {
		res.Inputs[i].Path = ""
	}
	return res
}

// sameResult fails t when got and want differ in events, rejects or counts.
func sameResult(t *testing.T, what string, got, want *Result) {
	t.Helper()
	if len(want.Events) == 0 && len(want.Rejects) == 0 {
		return
	}
	if !reflect.DeepEqual(got.Inputs, want.Inputs) {
		t.Errorf("%s: inputs\n got %+v\nwant %+v", what, got.Inputs, want.Inputs)
	}
	if !reflect.DeepEqual(got.Rejects, want.Rejects) {
		t.Errorf("%s: rejects\n got %+v\nwant %+v", what, got.Rejects, want.Rejects)
	}
	if !reflect.DeepEqual(got.Events, want.Events) {
		t.Errorf("%s: %d events differ from %d", what, len(got.Events), len(want.Events))
	}
}

// eachTestdata calls fn with every testdata input of every format.
func eachTestdata(t *testing.T, fn func(t *testing.T, f Format, path string, data []byte)) {
	for _, f := range Formats() {
		for _, path := range testdataFiles(t, f.Name()) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Run(f.Name()+"/"+filepath.Base(path), func(t *testing.T) { fn(t, f, path, data) })
		}
	}
}

// TestBOMTolerated checks that every format's testdata with a UTF-8
// byte-order mark put in front gives the same events, rejects and counts as
// without, whether the format is named or sniffed.
func TestBOMTolerated(t *testing.T) {
	eachTestdata(t, func(t *testing.T, f Format, path string, data []byte) {
		withBOM := append(append([]byte{}, decode.UTF8BOM...), data...)
		for _, sniff := range []bool{false, true} {
			if sniff && needsOptions(t, path) {
				continue
			}
			want := runVariant(t, f, path, data, sniff)
			sameResult(t, "with BOM", runVariant(t, f, path, withBOM, sniff), want)
		}
	})
}

// TestJSONKeyOrder checks that every JSON record of every format's testdata
// gives the same events with the keys of each of its objects reversed and
// rotated by one (the first key moved last) and a UTF-8 BOM put in front.
// Each record's new order depends on its content only, so exact repeats
// stay repeats.
func TestJSONKeyOrder(t *testing.T) {
	eachTestdata(t, func(t *testing.T, f Format, path string, data []byte) {
		want := runVariant(t, f, path, data, false)
		for _, order := range []keyOrder{reverseKeys, rotateKeys} {
			moved, doc := reorderJSON(t, data, 0, order)
			moved = append(append([]byte{}, decode.UTF8BOM...), moved...)
			got := runVariant(t, f, path, moved, false)
			blankColumns(want) // a moved key moves its value's column
			blankColumns(got)
			if doc { // a document is written again on one line: its line numbers and texts change
				blankPlaces(want)
				blankPlaces(got)
			}
			sameResult(t, "keys reordered", got, want)
			if !needsOptions(t, path) {
				sniffed := runVariant(t, f, path, moved, true)
				blankColumns(sniffed)
				if doc {
					blankPlaces(sniffed)
				}
				sameResult(t, "keys reordered, sniffed", sniffed, want)
			}
		}
	})
}

// blankPlaces blanks the line numbers of res's events and the lines and
// details of its rejects.
func blankPlaces(res *Result) {
	for i := range res.Events {
		res.Events[i].InputLine = 0
	}
	for i := range res.Rejects {
		res.Rejects[i].Line, res.Rejects[i].Detail = 0, ""
	}
}

// blankColumns sets the rejects' columns to 0.
func blankColumns(res *Result) {
	for i := range res.Rejects {
		res.Rejects[i].Column = 0
	}
}

// keyOrder permutes an object's members.
type keyOrder func(members []member)

// member is one key and its (already reordered) value.
type member struct {
	key   string
	value []byte
}

func reverseKeys(m []member) {
	for i, j := 0, len(m)-1; i < j; i, j = i+1, j-1 {
		m[i], m[j] = m[j], m[i]
	}
}

func rotateKeys(m []member) {
	if len(m) > 1 {
		first := m[0]
		copy(m, m[1:])
		m[len(m)-1] = first
	}
}

// reorderJSON reorders the keys of every object in data: the whole of data
// at depth from or deeper (0 is the top level) when it is one JSON
// document, else each line that is one. It reports
// whether data was one document.
func reorderJSON(t *testing.T, data []byte, from int, order keyOrder) ([]byte, bool) {
	if doc := bytes.TrimSpace(data); len(doc) > 0 && (doc[0] == '{' || doc[0] == '[') && json.Valid(doc) {
		return reorderValue(t, doc, from, order), true
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	for i, line := range lines {
		body := bytes.TrimRight(line, "\r\n")
		if len(body) == 0 || body[0] != '{' || !json.Valid(body) {
			continue
		}
		lines[i] = append(reorderValue(t, body, from, order), line[len(body):]...)
	}
	return bytes.Join(lines, nil), false
}

// reorderValue returns the JSON value v with the keys of each of its
// objects at depth from or deeper put in order; other values are kept as
// written.
func reorderValue(t *testing.T, v []byte, from int, order keyOrder) []byte {
	switch v = bytes.TrimSpace(v); v[0] {
	case '{':
		var members []member
		d := json.NewDecoder(bytes.NewReader(v))
		d.Token() // {
		for d.More() {
			k, _ := d.Token()
			var raw json.RawMessage
			if err := d.Decode(&raw); err != nil {
				t.Fatal(err)
			}
			members = append(members, member{k.(string), reorderValue(t, raw, from-1, order)})
		}
		if from <= 0 {
			order(members)
		}
		out := []byte{'{'}
		for i, m := range members {
			if i > 0 {
				out = append(out, ',')
			}
			k, _ := json.Marshal(m.key)
			out = append(append(append(out, k...), ':'), m.value...)
		}
		return append(out, '}')
	case '[':
		var elems []json.RawMessage
		if err := json.Unmarshal(v, &elems); err != nil {
			t.Fatal(err)
		}
		out := []byte{'['}
		for i, e := range elems {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, reorderValue(t, e, from-1, order)...)
		}
		return append(out, ']')
	}
	return v
}

// TestTimeOutOfRange moves the dates of the testdata of each format that
// reads calendar dates to the year 2300 and to 1600, beyond what int64
// Unix nanoseconds hold: each format must reject some record with "time
// out of range", and no event may carry an instant outside 1970-2200
// (a wrapped-around one).
func TestTimeOutOfRange(t *testing.T) {
	iso := regexp.MustCompile(`(^|[^0-9.])20\d\d(-\d\d-\d\d[T ])`)
	clf := regexp.MustCompile(`(/[A-Z][a-z][a-z]/)20\d\d:`)
	lo, hi := int64(0), time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	for _, name := range []string{"har", "haproxy", "tgi", "litellm", "envoy", "otlp", "nginx", "jsonl"} {
		f, _ := Lookup(name)
		for _, year := range []string{"2300", "1600"} {
			rejected := 0
			for _, path := range testdataFiles(t, name) {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				moved := iso.ReplaceAll(data, []byte("${1}"+year+"${2}"))
				moved = clf.ReplaceAll(moved, []byte("${1}"+year+":"))
				res := runVariant(t, f, path, moved, false)
				rejected += int(res.Inputs[0].RejectsByReason[textscan.TimeRangeReason])
				for _, ev := range res.Events {
					for _, p := range []*int64{ev.StartNs, ev.HeadersNs, ev.FirstTokenNs, ev.LastTokenNs, ev.EndNs} {
						if p != nil && (*p < lo || *p > hi) {
							t.Errorf("%s in %s: line %d has instant %s", path, year, ev.InputLine, time.Unix(0, *p).UTC())
						}
					}
				}
			}
			if rejected == 0 {
				t.Errorf("%s in %s: no record rejected with %q", name, year, textscan.TimeRangeReason)
			}
		}
	}
}

// TestInvalidUTF8NotSkipped puts an invalid UTF-8 byte after the first
// " /" or "=/" followed by a letter (a URL path or route) on every line of
// the text formats' testdata: each record must still be kept or rejected
// with a reason, never skipped as a foreign line, and what is kept holds
// U+FFFD in the byte's place (valid UTF-8).
func TestInvalidUTF8NotSkipped(t *testing.T) {
	path := regexp.MustCompile(`[ =]/[A-Za-z]`)
	for _, name := range []string{"tgi", "nginx", "haproxy", "envoy"} {
		f, _ := Lookup(name)
		marked := 0
		for _, p := range testdataFiles(t, name) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			lines := bytes.SplitAfter(data, []byte("\n"))
			for i, line := range lines {
				if loc := path.FindIndex(line); loc != nil {
					lines[i] = slices.Concat(line[:loc[0]+2], []byte{0xff}, line[loc[0]+2:])
				}
			}
			want := runVariant(t, f, p, data, false).Inputs[0]
			res := runVariant(t, f, p, bytes.Join(lines, nil), false)
			got := res.Inputs[0]
			for _, ev := range res.Events {
				if !utf8.ValidString(ev.Endpoint) || !utf8.ValidString(fmt.Sprint(ev.Attrs)) {
					t.Errorf("%s line %d: invalid UTF-8 kept: %q %q", p, ev.InputLine, ev.Endpoint, ev.Attrs)
				}
				if strings.Contains(ev.Endpoint, "\uFFFD") {
					marked++
				}
			}
			if got.Read != want.Read || got.Records+got.Rejected < want.Records+want.Rejected {
				t.Errorf("%s: with invalid UTF-8 %d read, %d kept, %d rejected, %d skipped; without %d, %d, %d, %d",
					p, got.Read, got.Records, got.Rejected, got.Skipped, want.Read, want.Records, want.Rejected, want.Skipped)
			}
		}
		if marked == 0 {
			t.Errorf("%s: no endpoint holds the replaced byte", name)
		}
	}
}
