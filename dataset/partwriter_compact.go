package dataset

import (
	"os"
	"path/filepath"
)

// SmallPartBytes is the size under which a staged part is merged with the
// other small parts of its partition by CompactParts, so that ingesting many
// small logs does not leave as many tiny files.
const SmallPartBytes = 4 << 20

// CompactParts merges, in each partition, the staged parts smaller than
// SmallPartBytes into one part that takes the place of the first of them;
// larger parts stay as they are. The events keep their order. The result
// depends only on the parts given, so ingest stays deterministic.
func CompactParts(dir string, parts []StagedPart) ([]StagedPart, error) {
	small := map[string]int{}
	isSmall := make([]bool, len(parts))
	for i, p := range parts {
		if info, err := os.Stat(p.Temp); err == nil && info.Size() < SmallPartBytes {
			isSmall[i] = true
			small[p.Partition]++
		}
	}
	// Each partition's small parts merge on their own writer, partitions in
	// parallel; a partition's parts are copied in the order given.
	var partitions []string
	byPartition := map[string][]int{}
	for i, p := range parts {
		if isSmall[i] && small[p.Partition] >= 2 {
			if byPartition[p.Partition] == nil {
				partitions = append(partitions, p.Partition)
			}
			byPartition[p.Partition] = append(byPartition[p.Partition], i)
		}
	}
	outs := make([][]StagedPart, len(partitions))
	errs := make([]error, len(partitions))
	forEach(len(partitions), func(k int) {
		pw := NewPartWriter(dir)
		for _, i := range byPartition[partitions[k]] {
			if errs[k] = copyPart(pw, parts[i].Temp); errs[k] != nil {
				pw.Abort()
				return
			}
		}
		outs[k], errs[k] = pw.Close()
	})
	var merged []int // indexes into parts of the small parts merged
	var out []StagedPart
	for k, p := range partitions {
		merged = append(merged, byPartition[p]...)
		out = append(out, outs[k]...)
	}
	if err := firstError(errs); err != nil {
		for _, m := range out {
			os.Remove(m.Temp)
		}
		return parts, err
	}
	if len(merged) == 0 {
		return parts, nil
	}
	return replaceMerged(parts, merged, out), nil
}

// copyPart writes every event of the part file at path through pw.
func copyPart(pw *PartWriter, path string) error {
	events, err := readFile(path, nil)
	if err != nil {
		return err
	}
	for i := range events {
		if _, err := pw.Write(&events[i]); err != nil {
			return err
		}
	}
	return nil
}

// replaceMerged removes the merged parts from parts, puts each partition's
// merged part where that partition's first merged part was, and deletes the
// merged parts' files.
func replaceMerged(parts []StagedPart, merged []int, out []StagedPart) []StagedPart {
	byPartition := map[string]StagedPart{}
	for _, m := range out {
		byPartition[m.Partition] = m
	}
	isMerged := map[int]bool{}
	for _, i := range merged {
		isMerged[i] = true
		os.Remove(parts[i].Temp)
	}
	var result []StagedPart
	for i, p := range parts {
		if !isMerged[i] {
			result = append(result, p)
		} else if m, ok := byPartition[p.Partition]; ok {
			result = append(result, m)
			delete(byPartition, p.Partition)
		}
	}
	return result
}

// RemoveEmptyPartitions removes the partition folders under dir that hold
// nothing (ingest creates them as it streams, and removes them again when it
// writes nothing), then dir itself when it is empty and removeDir is set.
func RemoveEmptyPartitions(dir string, removeDir bool) {
	dates, _ := filepath.Glob(filepath.Join(dir, "source=*", "date=*"))
	sources, _ := filepath.Glob(filepath.Join(dir, "source=*"))
	for _, d := range append(dates, sources...) {
		if info, err := os.Lstat(d); err == nil && info.IsDir() {
			os.Remove(d) // fails, as it should, when not empty
		}
	}
	if removeDir {
		os.Remove(dir)
	}
}
