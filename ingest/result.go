package ingest

import (
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
)

// Write appends the result to the dataset in dir: the events as new part
// files, then the rejects, then one manifest line per input. It returns the
// part files written. Each step is atomic; a failure after the part files
// were written leaves them without their manifest lines. When the events
// were streamed to DriverOptions.Dataset, dir must name that folder, and
// Write gives their staged part files their final names in input order.
func (r *Result) Write(dir string) ([]string, error) {
	var files []string
	var err error
	if r.dataset != "" {
		if filepath.Clean(dir) != filepath.Clean(r.dataset) {
			r.Discard()
			return nil, fmt.Errorf("events were staged in %s, not %s", r.dataset, dir)
		}
		staged, err := dataset.CompactParts(dir, r.staged)
		r.staged = nil
		if err != nil {
			dataset.RemoveParts(staged)
			return nil, err
		}
		files, err = dataset.CommitParts(dir, staged)
	} else {
		files, err = dataset.WriteDataset(dir, r.Events)
	}
	if err != nil {
		return nil, err
	}
	if err := dataset.AppendRejects(dir, r.Rejects); err != nil {
		return files, err
	}
	return files, dataset.AppendManifest(dir, r.Inputs)
}

// Discard removes the part files staged in DriverOptions.Dataset when the
// result is not written (an input failed, --strict found rejects).
func (r *Result) Discard() {
	dataset.RemoveParts(r.staged)
	r.staged = nil
	if r.dataset != "" {
		dataset.RemoveEmptyPartitions(r.dataset, !r.datasetExisted)
	}
}

// WriteSummary prints one row per input: path, format, host, the record
// counts, whether it was truncated, and its error if any.
func WriteSummary(w io.Writer, inputs []schema.InputStats) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "PATH\tFORMAT\tHOST\tREAD\tRECORDS\tDUP\tSKIPPED\tREJECTED\tTRUNCATED\n")
	var total schema.InputStats
	for _, in := range inputs {
		trunc := ""
		if in.Truncated {
			trunc = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\n", in.Path, in.Format, in.Host,
			in.Read, in.Records, in.Duplicates, in.Skipped, in.Rejected, trunc)
		total.Read += in.Read
		total.Records += in.Records
		total.Duplicates += in.Duplicates
		total.Skipped += in.Skipped
		total.Rejected += in.Rejected
	}
	if len(inputs) > 1 {
		fmt.Fprintf(tw, "total (%d inputs)\t\t\t%d\t%d\t%d\t%d\t%d\n", len(inputs),
			total.Read, total.Records, total.Duplicates, total.Skipped, total.Rejected)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, in := range inputs {
		if in.Error != nil {
			fmt.Fprintf(w, "%s: %s\n", in.Path, *in.Error)
		}
	}
	return nil
}
