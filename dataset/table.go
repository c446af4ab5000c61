package dataset

import (
	"bytes"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// WriteTable writes rows of any flat struct type with parquet tags (the
// reconciled per-request table of `analyze --requests-out`) as one Parquet
// file at path, with the dataset's codec and row-group size, atomically.
func WriteTable[T any](path string, rows []T) error {
	var buf bytes.Buffer
	pw := parquet.NewGenericWriter[T](&buf,
		parquet.Compression(&zstd.Codec{Level: zstd.DefaultLevel}),
		parquet.MaxRowsPerRowGroup(RowsPerRowGroup),
	)
	if _, err := pw.Write(rows); err != nil {
		return err
	}
	if err := pw.Close(); err != nil {
		return err
	}
	return WriteFileAtomic(path, buf.Bytes())
}
