package dataset

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/parquet-go/parquet-go"
	"github.com/ttftrace/ttftrace/schema"
)

// readBatch is the number of rows readRows decodes at a time.
const readBatch = 1024

// readFiles reads every event of the given Parquet files, in file order. A
// file whose schema version is missing or unknown is refused with an error
// naming it.
func readFiles(files []string) ([]schema.Event, error) {
	// Files are decoded in parallel (decoding is CPU-bound) and
	// joined in path order, so the result does not depend on scheduling.
	parts := make([][]schema.Event, len(files))
	errs := make([]error, len(files))
	forEach(len(files), func(i int) { parts[i], errs[i] = readFile(files[i], nil) })
	if err := firstError(errs); err != nil {
		return nil, err
	}
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	events := make([]schema.Event, 0, n)
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

// readFile appends the events of one Parquet file to events. parquet-go
// panics on some malformed files; such a panic becomes an error naming path.
func readFile(path string, events []schema.Event) (_ []schema.Event, err error) {
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
	if v, ok := pf.Lookup(schema.MetadataVersionKey); !ok || v != strconv.Itoa(schema.Version) {
		if !ok {
			v = "none"
		}
		return events, fmt.Errorf("%s: schema version %s is not supported (this ttftrace reads version %d)", path, v, schema.Version)
	}
	if evs, err := decodeEvents(pf, events); !errors.Is(err, errEventLayout) {
		if err != nil {
			err = fmt.Errorf("%s: %w", path, err)
		}
		return evs, err
	}
	return readRows(pf, path, events)
}

// readRows appends the events of pf to events through parquet-go's row
// reader: the route for files whose layout decodeEvents does not take.
func readRows(pf *parquet.File, path string, events []schema.Event) ([]schema.Event, error) {
	r := parquet.NewGenericReader[schema.Event](pf)
	defer r.Close()
	batch := make([]schema.Event, readBatch)
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
