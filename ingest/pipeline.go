package ingest

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// The driver's concurrency, all in this file and collect.go:
//
//	reader ──units in call order──▶ workers (decode, in parallel) ──batches──▶ collector
//	                                                                  (in call order: counts,
//	                                                                   duplicates, rejects)
//	                                                                      │ kept events
//	                                                                      ▼
//	                                                               stripe writers (Parquet)
//
// The reader goroutine opens the inputs one after the other, sniffs them and
// cuts each input of a LineSplitter format into blocks of whole lines; an
// input of another format is one unit, decoded by one worker as a stream.
// Workers decode units in parallel, each into its own channel of batches.
// The collector takes the units in the call's order, so counts, duplicate
// decisions, rejects and kept events do not depend on which worker ran
// what, and hands each unit's kept events to stripe writer (unit number mod
// writeStripes), which write Parquet in parallel. Every channel is bounded:
// memory holds a few units, whatever the size of the inputs.

// writeStripes is the number of part writers a call writes its events
// through in parallel: unit n's events go to writer n mod writeStripes. It
// is a constant, not the worker count, so the part files are the same
// whatever the number of workers.
const writeStripes = 2

// unitsAhead is how many units the reader may be ahead of the collector,
// besides those being decoded. A worker that finishes its units while the
// collector still waits for another's head unit idles once the reader is
// this far ahead: 8 rather than 4 leaves room for blocks that decode
// slower, at the cost of the decoded batches held (~1 MB a unit of OTLP).
const unitsAhead = 8

// unitBatches is how many batches a worker may be ahead of the collector on
// its unit.
const unitBatches = 4

// unit is one piece of the call's work: a block of lines of an input, a
// whole input, or the end of an input (decode nil).
type unit struct {
	seq    int         // position in the call's order
	input  *inputState // the input the unit belongs to
	decode func(*unitSink) error
	sink   *unitSink
	out    chan *batch // the unit's batches, closed when it is decoded
	err    error       // Decode's error, set before out is closed (end: the input's)
}

// inputState is what the call learns about one input besides its records.
type inputState struct {
	index     int // position in the call's inputs
	stats     schema.InputStats
	format    Format
	err       error // the first error that fails the input (the collector's)
	truncated bool  // set before its end unit is sent (whole inputs: before out closes)
	clocks    map[string]bool
	lineBase  int64       // lines before the first one read (a resumed input)
	span      *spanReader // fingerprints the bytes read; nil when none were
}

// pipeline runs one call's units.
type pipeline struct {
	opts   DriverOptions
	prog   *progress
	units  chan *unit // to the collector, in call order
	work   chan *unit // to the workers
	pool   *batchPool
	blocks *blockPool // block buffers, made by the first input read in blocks
	seq    int
}

// produce sends the units of every input, in order, then closes the
// channels.
func (p *pipeline) produce(files []string) {
	for i, name := range files {
		p.produceInput(i, name)
	}
	close(p.units)
	close(p.work)
}

// send hands u to the collector and, when it has work, to the workers.
func (p *pipeline) send(u *unit) {
	u.seq = p.seq
	p.seq++
	u.out = make(chan *batch, unitBatches)
	p.units <- u
	if u.decode == nil {
		close(u.out)
		return
	}
	u.sink = &unitSink{name: u.input.stats.Path, host: u.input.stats.Host, format: u.input.format, out: u.out, pool: p.pool}
	p.work <- u
}

// produceInput opens, decompresses and sniffs one input and sends its units:
// its blocks, or itself whole, then its end. A grown input (see
// incremental.go) is read from where the dataset's span of it ends, in the
// format it was committed with, its lines numbered from there.
func (p *pipeline) produceInput(i int, name string) {
	host, size := p.hostOf(name), int64(0)
	rp := p.opts.resume[name]
	in := &inputState{index: i, stats: schema.InputStats{Path: name, Host: host}, clocks: map[string]bool{}, lineBase: rp.startLine}
	end := func(err error) { p.send(&unit{input: in, err: err}) }
	o, err := p.openInput(name, rp)
	if err != nil {
		end(err)
		return
	}
	in.span, size = o.sr, o.size
	br := bufio.NewReaderSize(o.sr, SniffSize)
	head, _ := br.Peek(SniffSize)
	if rp.start == 0 && bytes.HasPrefix(head, decode.UTF8BOM) { // a BOM is only ever at byte 0
		br.Discard(len(decode.UTF8BOM))
		head, _ = br.Peek(SniffSize)
		size = max(size-int64(len(decode.UTF8BOM)), 0)
	}
	opts := p.opts
	if rp.format != "" && opts.Format == "" {
		opts.Format = rp.format // a grown input goes on in its committed format
	}
	f, err := chooseFormat(opts, head)
	if err != nil && o.d.truncated && bytes.IndexByte(head, '\n') < 0 {
		p.sendCutLine(in, 1, len(head)) // too little to sniff: cut inside its first line
		f, err = nil, nil
	}
	if err != nil || f == nil { // an empty input holds no records
		in.truncated = o.close()
		end(err)
		return
	}
	in.format, in.stats.Format = f, f.Name()
	input := Input{Name: name, Host: host, Size: size, Opts: p.formatOptions(f)}
	if ie, ok := f.(InstantErrorer); ok {
		errs := ie.InstantErrors(input.Opts)
		in.stats.InstantErrors = &errs
	}
	if tn, ok := f.(TimingNoter); ok {
		note := tn.TimingNote(input.Opts)
		in.stats.TimingNote = &note
	}
	if pr, ok := f.(PerRunFielder); ok {
		in.stats.PerRunFields = pr.PerRunFields()
	}
	if ls, ok := f.(LineSplitter); ok && ls.LineRecords(head) {
		err := p.produceBlocks(in, br, head, input, o.d)
		in.truncated = o.close()
		end(err)
		return
	}
	input.R = br
	p.send(&unit{input: in, decode: func(s *unitSink) error {
		s.base = in.lineBase
		err := safeDecode(f, &input, s)
		in.truncated = o.close()
		return err
	}})
	p.send(&unit{input: in})
}

// openedInput is an input opened for reading: its decompressed bytes,
// fingerprinted as they are read.
type openedInput struct {
	sr   *spanReader
	size int64 // the size left to read when a plain regular file, else 0
	d    *decompressed
	done func() // closes the decompressor and the file
}

// close closes the input and reports whether a compressed input ended early.
func (o *openedInput) close() bool {
	o.done()
	return o.d.truncated
}

// openInput opens the input name at rp.
func (p *pipeline) openInput(name string, rp resumePoint) (*openedInput, error) {
	raw, size, closeRaw, err := p.open(name, rp)
	if err != nil {
		return nil, err
	}
	d := decompress(p.prog.reader(raw))
	o := &openedInput{size: size, d: d, done: func() { d.close(); closeRaw() }}
	if !d.plain {
		o.size = 0
	}
	if o.sr, err = newSpanReader(d.r, rp, rp.plain); err != nil {
		o.close()
		return nil, err
	}
	return o, nil
}

// formatOptions returns the options for format f: the call's, with f's
// own --log-format when one was given by name.
func (p *pipeline) formatOptions(f Format) Options {
	fo := p.opts.Options
	if lf, ok := p.opts.LogFormats[f.Name()]; ok {
		fo.LogFormat = lf
	}
	return fo
}

// hostOf returns the host of the input name: its --host PATH=NAME
// (DriverOptions.HostOf), else --host, else HostFromPath.
func (p *pipeline) hostOf(name string) string {
	var host string
	if p.opts.HostOf != nil {
		host = p.opts.HostOf(name)
	}
	return cmp.Or(host, p.opts.Host, HostFromPath(name))
}

// open opens the input name, positioned at rp.start when it is a plain file
// resumed there, and returns it, the size left to read when it is a regular
// file (else 0) and how to close it.
func (p *pipeline) open(name string, rp resumePoint) (io.Reader, int64, func(), error) {
	if name == StdinName {
		return p.opts.Stdin, 0, func() {}, nil
	}
	f, err := os.Open(name)
	if err == nil && rp.plain {
		_, err = f.Seek(rp.start, io.SeekStart)
	}
	if err != nil {
		if f != nil {
			f.Close()
		}
		return nil, 0, nil, err
	}
	var size int64
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size() - rp.start
	}
	return f, size, func() { f.Close() }, nil
}

// produceBlocks cuts r, which starts with head, into blocks and sends one
// unit per block. The unterminated last line of a stream d reports
// truncated is rejected, not decoded: it may be cut anywhere, and a cut
// number still parses. It returns the read error that ended r, if not io.EOF.
func (p *pipeline) produceBlocks(in *inputState, r io.Reader, head []byte, input Input, d *decompressed) error {
	size := cmp.Or(p.opts.BlockBytes, DefaultBlockBytes)
	if p.blocks == nil { // every buffer in flight: one per worker, the one handed over, the one being read
		p.blocks = newBlockPool(workers(p.opts.Workers)+2, size)
	}
	sp := newSplitter(r, size, head)
	for {
		buf := p.blocks.get()
		b, ok := sp.next(buf)
		if !ok {
			p.blocks.put(buf)
			break
		}
		if b.unterminated && d.truncated {
			p.blocks.put(b.data)
			p.sendCutLine(in, b.base+1, len(b.data))
			continue
		}
		p.send(&unit{input: in, decode: func(s *unitSink) error {
			defer p.blocks.put(b.data)
			s.base = in.lineBase + b.base
			if b.long {
				s.Reject(decode.AtCol(1, maxBlockLine+1), "line too long", longLineDetail) // the first byte past the limit
				return nil
			}
			bin := input
			bin.R, bin.Size = decode.NewBytesReader(b.data), int64(len(b.data)) // its lines read in place (EachTextLine)
			return safeDecode(in.format, &bin, s)
		}})
	}
	return sp.err
}

// sendCutLine sends a unit rejecting line (numbered from the input's
// lineBase) of in, n bytes cut by the truncation of its compressed stream.
func (p *pipeline) sendCutLine(in *inputState, line int64, n int) {
	p.send(&unit{input: in, decode: func(s *unitSink) error {
		s.base = in.lineBase
		s.Reject(decode.AtCol(line, int64(n)+1), "cut by truncation", fmt.Sprintf("the compressed stream ends %d bytes into this line", n))
		return nil
	}})
}

// runWorkers decodes the units of p.work on n goroutines until it is closed,
// and returns at once; wait waits for them.
func (p *pipeline) runWorkers(n int) (wait func()) {
	var wg sync.WaitGroup
	for range max(n, 1) {
		wg.Go(func() {
			for u := range p.work {
				u.err = u.decode(u.sink)
				u.sink.flush()
				close(u.out)
			}
		})
	}
	return wg.Wait
}

// workers returns the number of decoding goroutines for opts.Workers.
func workers(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}
