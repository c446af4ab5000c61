package sqlviews

import (
	"fmt"
	"strings"
)

// idPattern matches what analyze's foldHex folds: a UUID (8-4-4-4-12 hex
// digits) or 16 or more hex digits without dashes.
const idPattern = `([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[0-9a-fA-F]{16,})`

// normIDSQL returns the SQL of analyze's normalizeID (analyze/reconcile/ids.go)
// over the column stripped, which holds the raw id trimmed of spaces with a
// vLLM chatcmpl- or cmpl- prefix removed (strippedIDSQL): a UUID or long hex
// id, also after a req_ or req- prefix (written req_), is folded to
// lowercase hex without dashes; any other id is kept as it is.
func (d dialectSyntax) normIDSQL() string {
	match := func(re string) string { return fmt.Sprintf(d.match, "stripped", quote(re)) }
	var b strings.Builder
	b.WriteString("CASE\n")
	fmt.Fprintf(&b, "      WHEN %s\n        THEN 'req_' || lower(replace(substr(stripped, 5), '-', ''))\n", match("^[Rr][Ee][Qq][_-]"+idPattern+"$"))
	fmt.Fprintf(&b, "      WHEN %s\n        THEN lower(replace(stripped, '-', ''))\n", match("^"+idPattern+"$"))
	b.WriteString("      ELSE stripped\n    END")
	return b.String()
}

// strippedIDSQL returns the first steps of normalizeID over the column
// raw: spaces trimmed, "" and "-" (nginx's empty value) no id, and vLLM's
// chatcmpl- and cmpl- prefixes dropped when something follows them.
const strippedIDSQL = `CASE
      WHEN trim(raw) IN ('', '-') THEN NULL
      WHEN trim(raw) LIKE 'chatcmpl-_%' THEN substr(trim(raw), 10)
      WHEN trim(raw) LIKE 'cmpl-_%' THEN substr(trim(raw), 6)
      ELSE trim(raw)
    END`
