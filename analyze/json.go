package analyze

import (
	"encoding/json"
	"fmt"
)

// SchemaVersion is the analysis.json schema_version, the one version Decode
// reads.
const SchemaVersion = 1

// Encode returns a as analysis.json: indented JSON ending in a newline, its
// keys in Analysis's field order, so the same analysis gives the same bytes.
func Encode(a *Analysis) ([]byte, error) {
	b, err := json.MarshalIndent(a, "", " ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Decode reads an analysis.json of this SchemaVersion; any other version,
// or a document that is not an analysis, is an error.
func Decode(b []byte) (*Analysis, error) {
	var a Analysis
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("not an analysis.json: %v", err)
	}
	if a.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("schema_version %d, this ttftrace reads %d", a.SchemaVersion, SchemaVersion)
	}
	return &a, nil
}
