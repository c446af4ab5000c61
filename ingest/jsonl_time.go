package ingest

import "time"

// looseRFC3339Ns reads the common shapes of the date formats jsonl's
// rfc3339 and litellm's ISO dates accept, in place: RFC 3339 with 'T' or
// ' ' between date and time, and, when tz is nil or UTC, without a zone;
// ok is false for anything else, which their time.Parse layouts then read.
func looseRFC3339Ns(s []byte, tz *time.Location) (int64, bool) {
	if ns, ok := rfc3339Ns(s); ok {
		return ns, true
	}
	if len(s) < 19 || len(s) > 47 || s[10] != ' ' && s[10] != 'T' {
		return 0, false
	}
	var buf [48]byte
	b := append(buf[:0], s...)
	b[10] = 'T'
	if ns, ok := rfc3339Ns(b); ok {
		return ns, true
	}
	if tz != nil && tz != time.UTC {
		return 0, false
	}
	return rfc3339Ns(append(b, 'Z'))
}
