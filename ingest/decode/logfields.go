package decode

import "strconv"

// LogFields splits an access-log line, or the format string that writes
// such lines, into its fields as a person reads them: runs of bytes
// between spaces, where a "quoted" string (a backslash escapes the byte
// after it) or a [bracketed] group counts as part of one field with the
// spaces it holds. An unclosed quote or bracket runs to the end. Format
// mismatch reasons compare the fields of a line with those of its format.
func LogFields(line []byte) [][]byte {
	var fields [][]byte
	start, quoted, bracket := -1, false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted && c == '\\':
			i++
		case quoted:
			quoted = c != '"'
		case bracket:
			bracket = c != ']'
		case c == ' ':
			if start >= 0 {
				fields, start = append(fields, line[start:i]), -1
			}
			continue
		case c == '"':
			quoted = true
		case c == '[':
			bracket = true
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		fields = append(fields, line[start:])
	}
	return fields
}

// Count writes n and the noun, plural unless n is 1: "1 field", "3 fields".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// LogShape is a format a line was to be read with, split into fields
// (LogFields of its format string), for the reason of a line it does not
// fit.
type LogShape struct {
	Name   string   // how the reason names the format: "the log_format", "combined"
	Fields [][]byte // the fields of the format string
	// Fits reports whether a line's field fits the format's field i.
	Fits func(i int, field []byte) bool
}

// ShapeMismatch compares the fields of line with those of the shapes and
// says how the line differs from the first shape with as many fields:
// "field 4 does not fit [$time_local] in combined"; from the first shape
// when none has as many: "5 fields where combined has 9"; "" when each
// field fits (the spaces between them differ). Its few answers per format
// let the rejects of an input add up under one reason.
func ShapeMismatch(line []byte, shapes []LogShape) string {
	fields := LogFields(line)
	for _, s := range shapes {
		if len(s.Fields) != len(fields) {
			continue
		}
		for i, f := range fields {
			if !s.Fits(i, f) {
				return "field " + strconv.Itoa(i+1) + " does not fit " + TruncateDetail(string(s.Fields[i])) + " in " + s.Name
			}
		}
		return ""
	}
	return Count(len(fields), "field") + " where " + shapes[0].Name + " has " + strconv.Itoa(len(shapes[0].Fields))
}
