package ingest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"

	"github.com/ttftrace/ttftrace/schema"
)

// Incremental ingest. Every input read into a dataset is committed with a
// schema.Span: where its bytes started and ended and a fingerprint of them,
// the SHA-256 of its first spanBlock bytes and of the spanBlock bytes before
// the end. Before decoding, each regular file is compared with the spans the
// dataset holds (DriverOptions.Known): a file whose first block and block
// before a committed end are the same bytes is that input, under whatever
// name (access.log renamed access.log.1 is recognized). When it ends there it
// is already in the dataset and is not read; when it goes on, it has grown
// and is read from that end, as GoAccess's incremental mode does, with the
// format the committed part was decoded with (the middle of a log need not
// sniff as its start does). Records then keep their line numbers in the file.
// A file rewritten rather than appended to (a JSON document saved again)
// differs before the committed end, so it is new content and read whole.
//
// Why these blocks: the first 4 KiB of a log are tens of timestamped lines,
// so two different logs practically never share them, and the block before
// the end says the content up to there is unchanged (a file truncated and
// rewritten differs there). Size and modification time are not identity: a
// copy or a rotation changes the name and often the time, a growing log
// changes both, and equal sizes say nothing. Hashing the whole file would
// read all of an old log again on every run; two blocks cost two small reads
// of a plain file (a compressed one is decompressed up to the end read).

// spanBlock is the length in bytes of the blocks a span hashes.
const spanBlock = 4096

// resumePoint says where to start reading one input.
type resumePoint struct {
	start     int64  // offset of the decompressed stream to start at
	startLine int64  // line feeds before start
	head      []byte // the stream's first bytes, read while planning
	plain     bool   // not compressed: start is a file offset to seek to
	format    string // the format the committed part was decoded with
}

// KnownInput is an input the dataset already holds whole, so it was not
// read.
type KnownInput struct {
	Path      string            // the input as given
	Committed schema.InputStats // the committed input with the same content
}

// planInputs compares the regular files among files with the committed
// inputs known, and returns the files still to read, where to start each
// resumed one, and the inputs already held whole. Files are compared in
// parallel: a compressed one is decompressed up to the end compared.
func planInputs(files []string, known []schema.InputStats) ([]string, map[string]resumePoint, []KnownInput) {
	type plan struct {
		rp    resumePoint
		match *schema.InputStats
		whole bool
	}
	plans := make([]plan, len(files))
	parallel(len(files), 0, func(i int) {
		p := &plans[i]
		p.rp, p.match, p.whole = planInput(files[i], known)
	})
	var todo []string
	var held []KnownInput
	resume := map[string]resumePoint{}
	for i, f := range files {
		switch p := plans[i]; {
		case p.whole:
			held = append(held, KnownInput{Path: f, Committed: *p.match})
		case p.match != nil:
			resume[f] = p.rp
			todo = append(todo, f)
		default:
			todo = append(todo, f)
		}
	}
	return todo, resume, held
}

// planInput compares one file with the committed inputs. It returns the
// matching committed input (nil for new content) and whether the file ends
// where that input's span ends (held whole); otherwise reading resumes at
// the point returned. Errors are left for the decoder to report.
func planInput(name string, known []schema.InputStats) (resumePoint, *schema.InputStats, bool) {
	if name == StdinName || len(known) == 0 {
		return resumePoint{}, nil, false
	}
	f, err := os.Open(name)
	if err != nil {
		return resumePoint{}, nil, false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() { // a FIFO is read once, as it comes
		return resumePoint{}, nil, false
	}
	d := decompress(f)
	defer d.close()
	head := make([]byte, spanBlock)
	n, _ := io.ReadFull(d.r, head)
	head = head[:n]
	match := bestMatch(head, known)
	if match == nil {
		return resumePoint{}, nil, false
	}
	sp := match.Span
	tail, more := readTail(f, info.Size(), d, head, sp)
	if tail == nil || hashHex(tail) != sp.Tail {
		return resumePoint{}, nil, false // same start, other content: a new input
	}
	if !more {
		return resumePoint{}, match, true
	}
	return resumePoint{start: sp.End, startLine: sp.EndLine, head: head, plain: d.plain, format: match.Format}, match, false
}

// bestMatch returns the committed input whose first bytes are head's and
// whose span ends furthest (a file ingested in several steps has a span per
// step), or nil.
func bestMatch(head []byte, known []schema.InputStats) *schema.InputStats {
	var best *schema.InputStats
	hashes := map[int64]string{}
	for i := range known {
		sp := known[i].Span
		if sp == nil || known[i].Error != nil || sp.End == 0 || sp.HeadLen > int64(len(head)) {
			continue
		}
		h, ok := hashes[sp.HeadLen]
		if !ok {
			h = hashHex(head[:sp.HeadLen])
			hashes[sp.HeadLen] = h
		}
		if h == sp.Head && (best == nil || sp.End > best.Span.End) {
			best = &known[i]
		}
	}
	return best
}

// readTail returns the TailLen bytes before sp.End of the file's stream (nil
// when it is shorter) and whether the stream goes on past sp.End. A plain
// file is read at the offsets; a compressed one is decompressed up to there
// (head, its first bytes, were read from d already).
func readTail(f *os.File, size int64, d *decompressed, head []byte, sp *schema.Span) ([]byte, bool) {
	tail := make([]byte, sp.TailLen)
	if d.plain {
		if _, err := f.ReadAt(tail, sp.End-sp.TailLen); err != nil {
			return nil, false
		}
		return tail, size > sp.End
	}
	r := io.MultiReader(bytes.NewReader(head), d.r)
	if _, err := io.CopyN(io.Discard, r, sp.End-sp.TailLen); err != nil {
		return nil, false
	}
	if _, err := io.ReadFull(r, tail); err != nil {
		return nil, false
	}
	var one [1]byte
	n, _ := io.ReadFull(r, one[:])
	return tail, n == 1
}

func hashHex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// spanReader passes an input's decompressed bytes to the decoder and
// fingerprints them on the way (see schema.Span).
type spanReader struct {
	r    io.Reader
	span schema.Span
	head []byte // the stream's first bytes, up to spanBlock
	tail []byte // the last bytes read, at least spanBlock once that many were
}

// newSpanReader starts reading r at rp: it discards rp.start bytes unless
// the file was already positioned there (seeked).
func newSpanReader(r io.Reader, rp resumePoint, seeked bool) (*spanReader, error) {
	if rp.start > 0 && !seeked {
		if _, err := io.CopyN(io.Discard, r, rp.start); err != nil {
			return nil, err
		}
	}
	s := &spanReader{r: r, head: rp.head}
	s.span.Start, s.span.End = rp.start, rp.start
	s.span.StartLine, s.span.EndLine = rp.startLine, rp.startLine
	return s, nil
}

func (s *spanReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	b := p[:n]
	s.span.End += int64(n)
	s.span.EndLine += int64(bytes.Count(b, []byte{'\n'}))
	if s.span.Start == 0 && len(s.head) < spanBlock {
		s.head = append(s.head, b[:min(len(b), spanBlock-len(s.head))]...)
	}
	if len(b) >= spanBlock {
		s.tail = append(s.tail[:0], b[len(b)-spanBlock:]...)
	} else if s.tail = append(s.tail, b...); len(s.tail) > 4*spanBlock {
		s.tail = append(s.tail[:0], s.tail[len(s.tail)-spanBlock:]...)
	}
	return n, err
}

// result returns the span read so far.
func (s *spanReader) result() *schema.Span {
	sp := s.span
	sp.HeadLen = min(int64(len(s.head)), sp.End)
	sp.Head = hashHex(s.head[:sp.HeadLen])
	sp.TailLen = min(int64(len(s.tail)), spanBlock)
	sp.Tail = hashHex(s.tail[int64(len(s.tail))-sp.TailLen:])
	return &sp
}
