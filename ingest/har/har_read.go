package har

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/schema"
)

// A HAR document is read whole. A json.Decoder walks it to log.entries
// (harWalk); the entries array is split in place (entries), each entry
// read from its bytes, its syntax checked as the Decoder checked it, as
// encoding/json decodes it into harEntry (har_entry.go), its request and
// response bodies and SSE events as encoding/json decodes them
// (har_body.go, har_chunk.go). Where the split meets what is not an
// element, a comma or the closing bracket (a damaged or cut document), the
// rest of the array goes to a json.Decoder (handOver), which reports it in
// its own words; an entry of a wrong-typed value is rejected in
// encoding/json's words (refuse). Profiles had shown the time in
// encoding/json: the Decoder scanning every entry, a reflective Unmarshal
// of every entry and another of every SSE event.

// reader reads one HAR document; its scratch is reused entry to entry.
type reader struct {
	in        *decode.Input
	sink      decode.Sink
	endpoints []string
	data      []byte // the input as read
	readErr   error  // the error that ended the reading of data, if any
	stack     []byte // jsonwalk's scratch
	deep      bool   // a value skipped since the last check nests deep
	line      int64  // the line of data[lineAt]
	lineAt    int
	e         entry  // the entry being read
	post      []byte // the unescaped request body
	text      []byte // the unescaped response body
	b64       []byte // the base64-decoded response body
	c         chunk  // the SSE event being read
	ev        schema.Event
	intern    decode.InternTable
	arena     decode.ValueArena
}

// Decode reads the whole input and reports its entries.
func (Format) Decode(in *decode.Input, sink decode.Sink) error {
	data, err := decode.ReadAllSized(in.R, in.Size)
	r := &reader{in: in, sink: sink, endpoints: harEndpoints(in), data: data, readErr: err, line: 1}
	return r.document()
}

// document walks the document to log.entries with a json.Decoder and
// reads the entries; the line of an entry is the line its value starts on.
func (r *reader) document() error {
	li := &decode.LineIndex{R: r.rest(0, "")}
	dec := json.NewDecoder(li)
	dec.UseNumber()
	found, err := harWalk(dec, []string{"log", "entries"}, func(open json.Delim) error {
		if open == '[' {
			return r.entries(int(dec.InputOffset()))
		}
		return decode.JSONArrayElements(dec, li, r.sink, r.record) // an object: as the Decoder reads it
	})
	if err != nil && !found {
		failed := r.readErr != nil && errors.Is(err, r.readErr) // the input, not the document
		err = fmt.Errorf("har: not a HAR document: %v", err)
		if failed {
			return err
		}
		return &decode.Error{File: r.in.Name, Pos: li.Pos(dec.InputOffset()), Err: err} // where the Decoder stopped
	}
	if err != nil {
		return err // a read error inside the entries
	}
	if !found {
		return errors.New("har: no log.entries array")
	}
	return nil
}

// rest returns a reader of prefix, data[i:] and then the read error that
// ended the input, if any.
func (r *reader) rest(i int, prefix string) io.Reader {
	rd := io.MultiReader(strings.NewReader(prefix), bytes.NewReader(r.data[i:]))
	if r.readErr != nil {
		rd = io.MultiReader(rd, decode.ErrReader{Err: r.readErr})
	}
	return rd
}

// entries reads the entries array whose '[' ends just before data[i]:
// white space, an element, then a comma or the closing bracket.
func (r *reader) entries(i int) error {
	for first := true; ; first = false {
		k := jsonwalk.SkipWS(r.data, i)
		if k < len(r.data) && r.data[k] == ']' {
			return nil
		}
		if !first {
			if k >= len(r.data) || r.data[k] != ',' {
				return r.handOver(i, first)
			}
			k = jsonwalk.SkipWS(r.data, k+1)
		}
		if end := r.walked(r.data, k, r.read(r.data, k)); end >= 0 {
			r.emit(r.posOf(k), r.data[k:end])
			i = end
			continue
		}
		end, st, grown := jsonwalk.ValueEnd(r.data, k, r.stack) // not JSON, or of a wrong type?
		if r.stack = grown[:0]; st != jsonwalk.OK {
			return r.handOver(i, first)
		}
		r.refuse(r.posOf(k), r.data[k:end])
		i = end
	}
}

// handOver hands the rest of the entries array, from data[i] (just past
// the '[' when first, else just past an element), to a json.Decoder, which
// reports it as the Decoder reading the whole array did: a reject in its
// words where the array is damaged, or the read error.
func (r *reader) handOver(i int, first bool) error {
	prefix := "[{}" // an element before data[i]
	if first {
		prefix = "["
	}
	li := &decode.LineIndex{R: r.rest(i, prefix)}
	dec := json.NewDecoder(li)
	if _, err := dec.Token(); err != nil {
		return err
	}
	by := r.lineOf(i) - 1 // the prefix holds no newline
	shift := decode.ShiftSink{Sink: r.sink, Lines: by, Cols: r.colOf(i) - 1 - int64(len(prefix))}
	stand := !first
	return decode.JSONArrayElements(dec, li, shift, func(at decode.Pos, raw []byte) {
		if stand {
			stand = false // the stand-in element
			return
		}
		r.record(shift.Pos(at), raw)
	})
}

// colOf returns the 1-based column of data[i] within its line.
func (r *reader) colOf(i int) int64 {
	return int64(i - bytes.LastIndexByte(r.data[:i], '\n'))
}

// posOf returns the position of data[i]; i never goes back.
func (r *reader) posOf(i int) decode.Pos { return decode.Pos{Line: r.lineOf(i), Col: r.colOf(i)} }

// lineOf returns the line of data[i]; i never goes back.
func (r *reader) lineOf(i int) int64 {
	r.line += int64(bytes.Count(r.data[r.lineAt:i], []byte{'\n'}))
	r.lineAt = i
	return r.line
}

// record reads the entry raw, a JSON value at at, and reports it.
func (r *reader) record(at decode.Pos, raw []byte) {
	if r.walked(raw, 0, r.read(raw, 0)) < 0 {
		r.refuse(at, raw)
		return
	}
	r.emit(at, raw)
}

// emit reports the entry raw at at, read into r.e; a reject is at the
// entry's '{' (HAR entries are objects whose offending member the reader
// does not locate).
func (r *reader) emit(at decode.Pos, raw []byte) {
	ev, skip, reason, detail := r.event()
	decode.Emit(r.in, r.sink, at, raw, decode.OnWallClock(ev, r.in, "har", schema.SourceClient), skip, reason, detail)
}

// refuse rejects the entry raw, JSON that encoding/json would not decode
// into harEntry (a value of the wrong type), in encoding/json's words.
func (r *reader) refuse(at decode.Pos, raw []byte) {
	var e harEntry
	err := json.Unmarshal(raw, &e)
	if err == nil { // not reached: read refuses only what encoding/json refuses
		err = errors.New("entry not read")
	}
	r.sink.Reject(at, "invalid json", decode.TruncateDetail(err.Error()))
}

// harWalk descends through the objects named by path and calls at with
// the delimiter that opened the value of the last key (an object or an
// array). It reports whether it got there.
func harWalk(dec *json.Decoder, path []string, at func(open json.Delim) error) (bool, error) {
	tok, err := dec.Token()
	if err != nil {
		return false, err
	}
	d, ok := tok.(json.Delim)
	if !ok || d != '{' && d != '[' || len(path) > 0 && d != '{' {
		return false, fmt.Errorf("unexpected %v", tok)
	}
	if len(path) == 0 {
		return true, at(d)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false, err
		}
		if key, _ := tok.(string); key == path[0] {
			return harWalk(dec, path[1:], at)
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return false, err
		}
	}
	return false, errors.New("missing " + path[0])
}
