package ingest

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
)

// Write adds the result to the dataset of w as one commit: the events as
// new part files, the rejects and one InputStats per input, all committed
// at once or not at all (see dataset.Writer.Commit). It returns the part
// files written. When the events were streamed to DriverOptions.Dataset, w
// must write that folder: the staged parts are compacted and committed in
// input order. Run and Write must happen while w holds the lock, so that
// what Run found already ingested is still what the dataset holds.
func (r *Result) Write(w *dataset.Writer) ([]string, error) {
	staged := r.staged
	r.staged = nil
	if r.dataset == "" {
		var err error
		if staged, err = stageEvents(w.Dir(), r.Events); err != nil {
			return nil, err
		}
	} else if filepath.Clean(w.Dir()) != filepath.Clean(r.dataset) {
		dataset.RemoveParts(staged)
		return nil, fmt.Errorf("events were staged in %s, not %s", r.dataset, w.Dir())
	}
	staged, err := dataset.CompactParts(w.Dir(), staged)
	if err != nil {
		dataset.RemoveParts(staged)
		return nil, err
	}
	return w.Commit(staged, r.Inputs, r.Rejects)
}

// stageEvents writes events held in memory to staged part files under dir,
// partitions in name order.
func stageEvents(dir string, events []schema.Event) ([]dataset.StagedPart, error) {
	pw := dataset.NewPartWriter(dir)
	for i := range events {
		if _, err := pw.Write(&events[i]); err != nil {
			pw.Abort()
			return nil, err
		}
	}
	parts, err := pw.Close()
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].Partition < parts[j].Partition })
	return parts, err
}

// Discard removes the part files staged in DriverOptions.Dataset when the
// result is not written (an input failed, --strict found rejects).
func (r *Result) Discard() {
	dataset.RemoveParts(r.staged)
	r.staged = nil
	if r.dataset != "" {
		dataset.RemoveEmptyPartitions(r.dataset, false)
	}
}

// RecordHosts returns, per input path, the hosts its events carry, sorted:
// the hosts the analysis uses, which records may name themselves (OTLP
// host.name) instead of the input's default.
func RecordHosts(events []schema.Event) map[string][]string {
	m := map[string][]string{}
	for i := range events {
		e := &events[i]
		if hs := m[e.InputFile]; !slices.Contains(hs, e.Host) {
			m[e.InputFile] = append(hs, e.Host)
		}
	}
	for _, hs := range m {
		slices.Sort(hs)
	}
	return m
}

// WriteSummary prints one row per input: path, format, hosts, the record
// counts, whether it was truncated, and its error if any. The hosts are
// those of hosts[path] (RecordHosts) when the events were kept, else the
// input's default host.
func WriteSummary(w io.Writer, inputs []schema.InputStats, hosts map[string][]string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "PATH\tFORMAT\tHOST\tREAD\tRECORDS\tDUP\tSKIPPED\tREJECTED\tTRUNCATED\n")
	var total schema.InputStats
	for _, in := range inputs {
		trunc := ""
		if in.Truncated {
			trunc = "yes"
		}
		host := in.Host
		if hs := hosts[in.Path]; len(hs) > 0 {
			host = summaryHosts(hs)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\n", in.Path, in.Format, host,
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

// summaryHosts joins hosts with commas, at most 3 then how many more.
func summaryHosts(hs []string) string {
	if len(hs) > 3 {
		return fmt.Sprintf("%s,… (%d)", strings.Join(hs[:3], ","), len(hs))
	}
	return strings.Join(hs, ",")
}
