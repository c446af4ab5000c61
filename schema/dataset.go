package schema

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// A dataset is a folder of Parquet files, hive-partitioned by source and day:
//
//	DATASET/source=client/date=2026-11-23/part-00000.parquet
//	DATASET/source=server/date=unknown/part-00000.parquet
//	DATASET/_manifest.jsonl   one InputStats per input per ingest call
//	DATASET/_rejects.jsonl    one Reject per rejected record
//
// The date is the UTC day of the event's start_ns when its clock is wall
// time, else "unknown". Every write adds new part files (the next free number
// in each partition) and never rewrites old ones: WriteDataset one per
// partition, streaming ingest (PartWriter) one per input and partition, with
// the parts smaller than SmallPartBytes merged into one. Files whose
// names start with "_" or "." are not data: Spark, DuckDB and Trino globs of
// **/*.parquet skip them, and so does ReadDataset.

// RowsPerRowGroup is the number of rows in each Parquet row group.
const RowsPerRowGroup = 64 << 10

// UnknownDate is the date partition of events without a wall-clock start.
const UnknownDate = "unknown"

// readBatch is the number of rows ReadDataset decodes at a time.
const readBatch = 1024

var partName = regexp.MustCompile(`^part-(\d{5,})\.parquet$`)

// PartitionOf returns the partition folder of ev, relative to the dataset
// root: "source=<source>/date=<YYYY-MM-DD of start_ns in UTC>", with date
// "unknown" when StartNs is nil or Clock is not ClockWall. A source outside
// [a-z0-9_-] is escaped (see partitionValue) so it cannot leave the folder.
func PartitionOf(ev *Event) string {
	date := UnknownDate
	if ev.StartNs != nil && ev.Clock == ClockWall {
		date = time.Unix(0, *ev.StartNs).UTC().Format(time.DateOnly)
	}
	return "source=" + partitionValue(ev.Source) + "/date=" + date
}

// partitionValue escapes a hive partition value: bytes outside [a-z0-9_-]
// become %XX, and an empty value becomes "unknown".
func partitionValue(s string) string {
	if s == "" {
		return UnknownDate
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// WriteDataset writes events under dir (created when missing), one new part
// file per partition, and returns the paths written in partition order.
// Events keep their order within a partition, so the same events give
// byte-identical files. Every file is written to a temporary file in its
// partition folder, synced, and renamed only once all files were written: a
// failed call leaves no new or partial part file behind.
func WriteDataset(dir string, events []Event) ([]string, error) {
	pw := NewPartWriter(dir)
	for i := range events {
		if _, err := pw.Write(&events[i]); err != nil {
			pw.Abort()
			return nil, err
		}
	}
	parts, err := pw.Close()
	if err != nil {
		return nil, err
	}
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].Partition < parts[j].Partition })
	return CommitParts(dir, parts)
}

// nextPartNumber returns the number of the next free part file of a
// partition folder: one more than the highest part number present.
func nextPartNumber(pdir string) (int, error) {
	entries, err := os.ReadDir(pdir)
	if err != nil {
		return 0, err
	}
	next := 0
	for _, e := range entries {
		if m := partName.FindStringSubmatch(e.Name()); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil && n >= next {
				next = n + 1
			}
		}
	}
	return next, nil
}

// newParquetWriter returns the writer of every part file: zstd compression,
// at most RowsPerRowGroup rows per group and the schema version in the
// file's metadata. zstd's fastest level: on the 20,000-request benchmark it
// compressed in 0.15 s of CPU where the default level took 0.37 s, and the
// dataset grew 2% (28.3 MB against 27.8 MB).
func newParquetWriter(w io.Writer) *parquet.GenericWriter[Event] {
	return parquet.NewGenericWriter[Event](w,
		parquet.Compression(partCodec),
		parquet.MaxRowsPerRowGroup(RowsPerRowGroup),
		parquet.KeyValueMetadata(MetadataVersionKey, strconv.Itoa(Version)),
	)
}

// partCodec compresses the pages of every part file. It is shared so that
// its pool of zstd encoders (each holds an 8 MB history window) serves all
// the part files open at once: a codec per file kept ~10 encoders alive
// while ingest wrote a log spanning days, 80 MB of a 390 MB heap.
var partCodec = &zstd.Codec{Level: zstd.SpeedFastest}

// syncDir makes a rename in dir durable; errors are ignored because some
// file systems cannot sync folders and the rename itself already succeeded.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// ReadDataset reads every event of the given datasets, in path order. Each
// argument is a dataset folder or a single .parquet file. A file whose
// schema version is missing or unknown is refused with an error naming it.
func ReadDataset(paths ...string) ([]Event, error) {
	var files []string
	for _, root := range paths {
		found, err := DataFiles(root)
		if err != nil {
			return nil, err
		}
		files = append(files, found...)
	}
	// Files are decoded in parallel (decoding is CPU-bound) and
	// joined in path order, so the result does not depend on scheduling.
	parts := make([][]Event, len(files))
	errs := make([]error, len(files))
	forEach(len(files), func(i int) { parts[i], errs[i] = readFile(files[i], nil) })
	if err := firstError(errs); err != nil {
		return nil, err
	}
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	events := make([]Event, 0, n)
	for i := range parts {
		events = append(events, parts[i]...)
		parts[i] = nil
	}
	return events, nil
}

// forEach calls fn(0…n−1) on up to GOMAXPROCS goroutines and waits.
func forEach(n int, fn func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				fn(i)
			}
		})
	}
	wg.Wait()
}

// firstError returns the first non-nil error of errs.
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// DataFiles lists the Parquet files of a dataset folder, sorted by path,
// leaving out files and folders whose names start with "_" or "."; a path
// naming a file is returned as it is.
func DataFiles(root string) ([]string, error) {
	info, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{root}, nil
	}
	var files []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if p != root && (strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".")) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() && strings.HasSuffix(name, ".parquet") {
			files = append(files, p)
		}
		return nil
	})
	return files, err // WalkDir visits in lexical order
}

// readFile appends the events of one Parquet file to events. parquet-go
// panics on some malformed files; such a panic becomes an error naming path.
func readFile(path string, events []Event) (_ []Event, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: unreadable parquet: %v", path, p)
		}
	}()
	f, err := os.Open(path)
	if err != nil {
		return events, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return events, err
	}
	pf, err := parquet.OpenFile(f, info.Size())
	if err != nil {
		return events, fmt.Errorf("%s: %w", path, err)
	}
	if v, ok := pf.Lookup(MetadataVersionKey); !ok || v != strconv.Itoa(Version) {
		if !ok {
			v = "none"
		}
		return events, fmt.Errorf("%s: schema version %s is not supported (this ttftrace reads version %d)", path, v, Version)
	}
	if evs, err := readColumns(pf, events); !errors.Is(err, errLayout) {
		if err != nil {
			err = fmt.Errorf("%s: %w", path, err)
		}
		return evs, err
	}
	return readRows(pf, path, events)
}

// readRows appends the events of pf to events through parquet-go's row
// reader: the route for files whose layout readColumns does not take.
func readRows(pf *parquet.File, path string, events []Event) ([]Event, error) {
	r := parquet.NewGenericReader[Event](pf)
	defer r.Close()
	batch := make([]Event, readBatch)
	for {
		clear(batch)
		n, err := r.Read(batch)
		events = append(events, batch[:n]...) // the last rows come with io.EOF
		if errors.Is(err, io.EOF) {
			return events, nil
		}
		if err != nil {
			return events, fmt.Errorf("%s: %w", path, err)
		}
	}
}
