package litellm

import (
	"bufio"
	"bytes"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// A LiteLLM input that is one JSON array of records (a spend-log export).
// Profiling showed a third of the time in reading the whole input
// (io.ReadAll) and validating it before walking it again, and again per
// element. Here the array is read through a window, each element walked
// once where it lies (litellmReader.readAt validates it as it goes), and
// only the bytes from the end of the last element read are kept.
//
// The array is split as decode.JSONArray splits it: each element as
// json.Decoder reads it, ending at the first syntax error with a reject; so
// when the window finds one (or a truncated array), the elements before it
// have been reported as decode.JSONArray would have, and it reads on from
// there (tail): from the input's start when no element was read, else from
// the end of the last one, its decoder put into the same state by a
// stand-in element ("[{}") whose record is dropped, its lines shifted.

// jsonWindow holds the bytes of a stream from offset off on, refilled as a
// reader of it asks for more.
type jsonWindow struct {
	r   io.Reader
	buf []byte
	off int64 // the stream offset of buf[0]
	eof bool
	err error // a read error other than io.EOF
}

// The window starts at jsonWindowMin bytes (a small input costs little)
// and doubles at each refill up to jsonWindowSize, and beyond whenever what
// it keeps fills half of it, so that an element longer than the window is
// walked again only a logarithmic number of times.
const (
	jsonWindowMin  = 16 << 10
	jsonWindowSize = 256 << 10
)

// more fills the window with more of the stream, dropping the bytes before
// offset keep; it reports false when it read nothing (the end of the
// stream, or a read error).
func (w *jsonWindow) more(keep int64) bool {
	if w.eof || w.err != nil {
		return false
	}
	if k := int(keep - w.off); k > 0 {
		w.buf = w.buf[:copy(w.buf, w.buf[k:])]
		w.off = keep
	}
	if len(w.buf) > cap(w.buf)/2 || cap(w.buf) < jsonWindowSize {
		w.buf = slices.Grow(w.buf, max(cap(w.buf), jsonWindowMin))
	}
	n0 := len(w.buf)
	for len(w.buf) < cap(w.buf) && !w.eof && w.err == nil {
		n, err := w.r.Read(w.buf[len(w.buf):cap(w.buf)])
		w.buf = w.buf[:len(w.buf)+n]
		switch {
		case err == io.EOF:
			w.eof = true
		case err != nil:
			w.err = err
		}
	}
	return len(w.buf) > n0
}

// ws returns the stream offset of the first byte at or after p that is not
// JSON white space, reading more as needed (keeping from keep); ok is false
// at the end of the stream.
func (w *jsonWindow) ws(p, keep int64) (int64, bool) {
	for {
		i := jsonwalk.SkipWS(w.buf, int(p-w.off))
		if i < len(w.buf) {
			return w.off + int64(i), true
		}
		p = w.off + int64(i)
		if !w.more(min(keep, p)) {
			return p, false
		}
	}
}

// litellmArray is the state of one array being read.
type litellmArray struct {
	f        *litellmReader
	in       *decode.Input
	loc      *time.Location
	sink     decode.Sink
	w        jsonWindow
	done     int   // elements reported
	keep     int64 // the end of the last element reported (0: none)
	keepLine int64 // the line of offset keep
	keepCol  int64 // the 1-based column of offset keep
	line     int64 // the line of offset pos
	col      int64 // the 1-based column of offset pos
	pos      int64
}

// stream reads the array at the start of br.
func (f *litellmReader) stream(in *decode.Input, loc *time.Location, sink decode.Sink, br *bufio.Reader) error {
	a := &litellmArray{f: f, in: in, loc: loc, sink: sink, line: 1, col: 1}
	a.w = jsonWindow{r: br}
	a.w.more(0)
	p, ok := a.w.ws(0, 0)
	if !ok || a.w.buf[p-a.w.off] != '[' {
		return a.tail(br)
	}
	for p++; ; p++ { // p is after the '[' or a ','
		if p, ok = a.w.ws(p, a.keep); !ok {
			return a.tail(br)
		}
		if a.done == 0 && a.w.buf[p-a.w.off] == ']' {
			break
		}
		if p = a.element(p); p < 0 {
			return a.tail(br)
		}
		if p, ok = a.w.ws(p, a.keep); !ok {
			return a.tail(br)
		}
		if c := a.w.buf[p-a.w.off]; c == ']' {
			break
		} else if c != ',' {
			return a.tail(br)
		}
	}
	if a.w.err != nil {
		return a.w.err
	}
	_, err := io.Copy(io.Discard, br) // read to the end, as decode.JSONRecords' callers expect
	return err
}

// lineAt advances the line count to stream offset p and returns it.
func (a *litellmArray) lineAt(p int64) int64 {
	w := &a.w
	seg := w.buf[a.pos-w.off : p-w.off]
	if nl := bytes.Count(seg, []byte("\n")); nl > 0 {
		a.line += int64(nl)
		a.col = int64(len(seg) - bytes.LastIndexByte(seg, '\n'))
	} else {
		a.col += int64(len(seg))
	}
	a.pos = p
	return a.line
}

// element reports the element at stream offset p and returns the offset
// just past it, or -1 when it is not valid JSON or the stream ends in it.
func (a *litellmArray) element(p int64) int64 {
	at := decode.Pos{Line: a.lineAt(p), Col: a.col}
	for {
		b, j := a.w.buf, int(p-a.w.off)
		end := -1
		if b[j] == '{' {
			end = a.f.readAt(b, j)
		}
		if end >= 0 {
			a.f.emit(a.in, a.loc, at, b[j:end], a.sink)
		}
		if end < 0 {
			var st int
			var grown []byte
			end, st, grown = jsonwalk.ValueEnd(b, j, a.f.stack)
			a.f.stack = grown[:0]
			if st == jsonwalk.More && a.w.more(a.keep) {
				continue
			}
			if st != jsonwalk.OK {
				return -1
			}
			a.f.record(a.in, a.loc, a.sink, at, b[j:end])
		}
		a.done++
		a.keep = a.w.off + int64(end)
		a.keepLine, a.keepCol = a.lineAt(a.keep), a.col
		return a.keep
	}
}

// tail hands the rest of the input to decode.JSONArray, as described
// above.
func (a *litellmArray) tail(br *bufio.Reader) error {
	if a.w.err != nil {
		return a.w.err
	}
	if a.done == 0 { // a.w.buf holds the input from its start
		r := io.MultiReader(bytes.NewReader(a.w.buf), br)
		return decode.JSONRecordsFast(r, a.sink, nil, func(line int64, raw []byte) {
			a.f.record(a.in, a.loc, a.sink, decode.At(line), raw)
		})
	}
	rest := a.w.buf[a.keep-a.w.off:]
	const stand = "[{}" // stands for the elements before keep
	shifted := decode.ShiftSink{Sink: a.sink, Lines: a.keepLine - 1, Cols: a.keepCol - 1 - int64(len(stand))}
	first := true
	r := io.MultiReader(strings.NewReader(stand), bytes.NewReader(rest), br)
	return decode.JSONArray(r, shifted, func(at decode.Pos, raw []byte) {
		if first {
			first = false // the stand-in element
			return
		}
		a.f.record(a.in, a.loc, a.sink, shifted.Pos(at), raw)
	})
}
