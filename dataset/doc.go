// Package dataset stores events: a folder of Parquet part files,
// hive-partitioned by source and day, and a commit log that says which of
// them are data.
//
//	DATASET/source=client/date=2026-11-23/part-00000.parquet
//	DATASET/source=server/date=unknown/part-00000.parquet
//	DATASET/_log/00000000000000000000.json   commit 0 (see log.go)
//	DATASET/_lock                            the writer lock
//
// The date is the UTC day of the event's start_ns when its clock is wall
// time, else "unknown". Every write adds new part files (the next free number
// in each partition) and never rewrites old ones: streaming ingest
// (PartWriter) one per input and partition, with the parts smaller than
// SmallPartBytes merged into one. A part file is data once a commit names it
// (Writer.Commit); readers (Open) list the committed files only. Files whose
// names start with "_" or "." are never data.
package dataset
