// Package client reads ttftrace's own client log (JSON lines): the decoder is Format,
// whose doc says which instant each field marks.
package client

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"

	gojson "github.com/goccy/go-json"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/schema"
)

// Format is ttftrace's own client log: JSON lines, one request per line
// (SPEC §3), written by a client that timestamps every chunk it receives.
//
// Fields and the instants they mark, all on the client host's wall clock:
//   - start: RFC 3339 time with fractional seconds at which the request was
//     sent → StartNs (Unix ns).
//   - headers_ms (optional): ms after start at which the response headers
//     arrived → HeadersNs.
//   - chunks[].t_ms: ms after start at which each chunk arrived; chunks of
//     kind content, reasoning and tool_call carry tokens and become
//     ChunkOffsetsNs, the first one FirstTokenNs and the last one
//     LastTokenNs. Role and usage chunks are never tokens.
//   - end_ms: ms after start at which the last byte ([DONE]) arrived → EndNs.
//
// Decisions where the format leaves room:
//   - ms values are converted to ns by rounding to the nearest ns.
//   - chunks[].tokens: when no chunk has it, ChunkTokens stays empty; when
//     some do, a token chunk without it counts 1 (SPEC §2's k = 1 when
//     unknown). A chunk with "tokens": 0 carries no token and is not listed.
//   - output_tokens from the record has provenance usage; else the sum of
//     chunk tokens, or the number of token chunks, has provenance counted;
//     a record with no chunks at all and no output_tokens has none.
//   - error: "stream_interrupted"/"interrupted" (or any value containing
//     "interrupt") is interrupted, values containing "timeout" are timeout,
//     the class names themselves map to themselves, anything else takes its
//     class from the status (decode.ErrorClass) or else is server_error. A status
//     outside 2xx that decode.ErrorClass leaves unclassified (0 = no response, 3xx)
//     is server_error. A record not marked "stream": false that has no error but
//     no end_ms was not seen to its end: it is interrupted.
//   - attrs: string values are kept; numbers and booleans are kept as their
//     JSON text; null, objects and arrays are skipped.
//   - trace_id is normalized to 32 lowercase hex digits (a traceparent is
//     accepted too); an unusable trace id is dropped, not rejected.
//   - a JSON line with neither request_id nor start, or that is not an
//     object, is skipped ("not a request record"); one with request_id but
//     no start is rejected ("missing start").
//
// A reject's column: a line that is no JSON, at the byte encoding/json
// refuses (just past the line when it is cut short); a line too long, at
// its first byte not kept; a record with a bad or missing value, at its
// '{' (the reader does not keep where each value lies).
type Format struct{}

func (Format) Name() string   { return "ttftrace-client" }
func (Format) Source() string { return schema.SourceClient }
func (Format) Describe() string {
	return "ttftrace client JSONL: start, headers, every chunk's arrival, end, tokens, status (client wall clock)"
}

// clientRecord is one line of the format as goccy/go-json decodes it: the
// reader reads what unmarshalling into it takes (client_read.go), and a
// line it refuses is unmarshalled into it only to word the reject.
type clientRecord struct {
	RequestID    string                       `json:"request_id"`
	TraceID      string                       `json:"trace_id"`
	Start        *string                      `json:"start"`
	Model        string                       `json:"model"`
	Endpoint     string                       `json:"endpoint"`
	Stream       *bool                        `json:"stream"`
	Status       *int32                       `json:"status"`
	Error        string                       `json:"error"`
	PromptTokens *int64                       `json:"prompt_tokens"`
	OutputTokens *int64                       `json:"output_tokens"`
	HeadersMs    *float64                     `json:"headers_ms"`
	EndMs        *float64                     `json:"end_ms"`
	Chunks       []clientRecordChunk          `json:"chunks"`
	Attrs        map[string]gojson.RawMessage `json:"attrs"`
}

// clientRecordChunk is a chunk of a clientRecord.
type clientRecordChunk struct {
	TMs    *float64 `json:"t_ms"`
	Tokens *int32   `json:"tokens"`
	Kind   string   `json:"kind"`
}

// clientReject is why a record could not be decoded.
type clientReject struct{ reason, detail string }

func (r *clientReject) Error() string { return r.reason + ": " + r.detail }

func clientRejectf(reason, detail string) error {
	return &clientReject{reason, decode.TruncateDetail(detail)}
}

// Sniff claims inputs whose first line is a JSON object with a top-level
// "start" key and a "chunks" or "end_ms" key.
func (Format) Sniff(head []byte) bool {
	head = bytes.TrimLeft(head, " \t\r\n")
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	line, _, complete := bytes.Cut(head, []byte{'\n'})
	var probe struct {
		Start  gojson.RawMessage `json:"start"`
		Chunks gojson.RawMessage `json:"chunks"`
		EndMs  gojson.RawMessage `json:"end_ms"`
	}
	if complete || len(head) < decode.SniffSize {
		if gojson.Unmarshal(line, &probe) != nil {
			return false
		}
		return len(probe.Start) > 0 && (len(probe.Chunks) > 0 || len(probe.EndMs) > 0)
	}
	// A first line longer than the sniff window: look for the keys.
	return jsonwalk.HasKey(line, "start") && (jsonwalk.HasKey(line, "chunks") || jsonwalk.HasKey(line, "end_ms")) &&
		!jsonwalk.HasKey(line, "experiments")
}

// LineRecords reports that every line is a request of its own, so the
// driver may decode a large file in blocks.
func (Format) LineRecords(head []byte) bool { return true }

// Decode reads one request per line; see Format for the field meanings.
func (f Format) Decode(in *decode.Input, sink decode.Sink) error {
	lines := newClientLines(in.R)
	c := &clientReader{}
	for {
		line, n, err := lines.next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if errors.Is(err, errClientLineTooLong) {
			sink.Reject(decode.AtCol(n, int64(len(line))+1), "line too long", strconv.Itoa(len(line))+" bytes kept of a longer line") // the first byte not kept
			continue
		}
		if err != nil {
			return err
		}
		c.decodeLine(in, n, line, sink)
	}
}

// decodeLine reports one line to sink.
func (c *clientReader) decodeLine(in *decode.Input, n int64, line []byte, sink decode.Sink) {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		sink.Skip(n, "blank line")
		return
	}
	if trimmed[0] != '{' {
		if gojson.Valid(trimmed) {
			sink.Skip(n, "not a request record")
		} else {
			sink.Reject(decode.JSONRefusedAt(n, decode.ColIn(line, trimmed), trimmed), "invalid json", decode.TruncateDetail(string(trimmed)))
		}
		return
	}
	var rec clientLine
	if !c.read(trimmed, &rec) {
		reason, detail := clientRefuse(trimmed)
		sink.Reject(decode.JSONRefusedAt(n, decode.ColIn(line, trimmed), trimmed), reason, detail)
		return
	}
	if rec.start == nil && rec.requestID == "" {
		sink.Skip(n, "not a request record")
		return
	}
	ev, err := rec.event(c)
	var rej *clientReject
	if errors.As(err, &rej) {
		sink.Reject(decode.AtCol(n, decode.ColIn(line, trimmed)), rej.reason, rej.detail) // the record's '{'
		return
	}
	ev.Host, ev.InputFile, ev.InputLine = in.Host, in.Name, n
	sink.Event(n, line, ev)
}

// clientRefuse returns the reject reason and detail of a line the reader
// refused, in the words of unmarshalling it into clientRecord.
func clientRefuse(line []byte) (reason, detail string) {
	if err := gojson.Unmarshal(line, new(clientRecord)); err != nil {
		return clientDecodeError(err, line)
	}
	return "invalid json", "unreadable record" // not reached: read takes what unmarshalling takes
}

// clientDecodeError turns an unmarshal error into a reject reason naming the
// field whose value had the wrong type, or "invalid json".
func clientDecodeError(err error, line []byte) (reason, detail string) {
	var te *gojson.UnmarshalTypeError
	if !errors.As(err, &te) || !gojson.Valid(line) {
		return "invalid json", decode.TruncateDetail(err.Error())
	}
	field, _, _ := strings.Cut(te.Field, ".")
	switch field {
	case "":
		return "invalid json", decode.TruncateDetail(err.Error())
	case "chunks":
		return "bad chunk", decode.TruncateDetail(te.Field + ": " + te.Value)
	}
	return "bad " + field, decode.TruncateDetail(te.Field + ": " + te.Value)
}

// errClientLineTooLong is returned by clientLines.next for a line longer
// than clientMaxLine; the rest of that line is discarded.
var errClientLineTooLong = errors.New("line too long")

// clientMaxLine is the longest line kept (bytes).
const clientMaxLine = 64 << 20

// clientLines reads lines of any length up to clientMaxLine, reusing one
// buffer (or the reader's, for a line that fits in it); a line's bytes are
// valid until the next call.
type clientLines struct {
	r    *bufio.Reader
	buf  []byte
	line int64
}

func newClientLines(r io.Reader) *clientLines {
	return &clientLines{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line without its "\n" or "\r\n" and its 1-based
// number; io.EOF after the last line.
func (l *clientLines) next() ([]byte, int64, error) {
	l.buf = l.buf[:0]
	tooLong := false
	for {
		frag, err := l.r.ReadSlice('\n')
		if err == nil && len(l.buf) == 0 && !tooLong { // a whole line in the reader's buffer: no copy
			l.line++
			return bytes.TrimSuffix(bytes.TrimSuffix(frag, []byte{'\n'}), []byte{'\r'}), l.line, nil
		}
		if len(l.buf)+len(frag) <= clientMaxLine {
			l.buf = append(l.buf, frag...)
		} else {
			tooLong = true
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && (!errors.Is(err, io.EOF) || (len(l.buf) == 0 && !tooLong)) {
			return nil, l.line, err
		}
		break
	}
	l.line++
	b := bytes.TrimSuffix(bytes.TrimSuffix(l.buf, []byte{'\n'}), []byte{'\r'})
	if tooLong {
		return b, l.line, errClientLineTooLong
	}
	return b, l.line, nil
}
