package nginx

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/ttftrace/ttftrace/ingest/decode"
)

// A line no log_format fits is rejected for a reason that says what the
// format expected and what the line holds, so that the warning of an input
// most of whose lines are rejected tells the user what to give: the line
// is JSON (a log written with escape=json), it is in combined or common
// (a --log-format given for a log nginx wrote with the default), it has
// another number of fields than the format (fields as decode.LogFields
// splits them: quoted strings and [brackets] are one field), or which
// field of the format it does not fit. The reasons are few per format, so
// that the rejects of an input add up under them.

// nginxMismatchPrefix starts every reason of a line no format fits.
const nginxMismatchPrefix = "line does not match log_format"

// nginxShape is a log_format as a whole and split into fields, for the
// reasons of the lines it does not fit.
type nginxShape struct {
	whole *nginxPlan
	decode.LogShape
}

// newNginxShape splits the format f, named name, into fields, each with
// its own plan (nil for a field without variables, compared as it is).
func newNginxShape(name string, f *nginxLogFormat) *nginxShape {
	fields := decode.LogFields([]byte(nginxFormatText(f)))
	plans := make([]*nginxPlan, len(fields))
	for i, field := range fields {
		if ff, err := nginxCompile(string(field)); err == nil {
			plans[i] = newNginxPlan(ff)
		}
	}
	fits := func(i int, field []byte) bool {
		if p := plans[i]; p != nil {
			return p.matchNew(field)
		}
		return bytes.Equal(field, fields[i])
	}
	return &nginxShape{newNginxPlan(f), decode.LogShape{Name: name, Fields: fields, Fits: fits}}
}

// matchNew is match with values of its own.
func (p *nginxPlan) matchNew(line []byte) bool {
	return p.match(line, make([]nginxSpan, len(p.vars)), bytes.IndexByte(line, '\\') < 0)
}

// nginxFormatText writes the compiled format back as a format string.
func nginxFormatText(f *nginxLogFormat) string {
	b := []byte(f.prefix)
	for _, v := range f.vars {
		b = append(append(append(b, '$'), v.name...), v.after...)
	}
	return string(b)
}

// nginxMismatch is what the reader keeps for the reasons of the lines
// no format fits, made at the first such line.
type nginxMismatch struct {
	shapes []decode.LogShape // the reader's formats
	known  []*nginxShape     // combined and common, when the user gave the log_format
	json   bool              // the reader's format writes JSON
}

// newNginxMismatch makes the shapes of the formats; custom says the user
// gave the one format (else they are combined and common).
func newNginxMismatch(formats []*nginxLogFormat, custom bool) *nginxMismatch {
	m := &nginxMismatch{json: bytes.HasPrefix([]byte(formats[0].prefix), []byte("{"))}
	if !custom {
		m.shapes = []decode.LogShape{newNginxShape("combined", formats[0]).LogShape, newNginxShape("common", formats[1]).LogShape}
		return m
	}
	m.shapes = []decode.LogShape{newNginxShape("the log_format", formats[0]).LogShape}
	for _, k := range [][2]string{{"combined", nginxCombined}, {"common", nginxCommon}} {
		f, _ := nginxCompile(k[1])
		m.known = append(m.known, newNginxShape(k[0], f))
	}
	return m
}

// reason returns the reason a line none of the formats fits is rejected for.
func (m *nginxMismatch) reason(line []byte) string {
	switch t := bytes.TrimLeft(line, " "); {
	case len(t) > 0 && t[0] == '{' && !m.json:
		return nginxMismatchPrefix + ": the line is JSON, give the log_format written with escape=json"
	case (len(t) == 0 || t[0] != '{') && m.json:
		return nginxMismatchPrefix + ": the line is not JSON, the log_format writes JSON"
	}
	for _, k := range m.known {
		if k.whole.matchNew(line) {
			return fmt.Sprintf("%s: the line is in %s, leave --log-format out", nginxMismatchPrefix, k.Name)
		}
	}
	if why := decode.ShapeMismatch(line, m.shapes); why != "" {
		return nginxMismatchPrefix + ": " + why
	}
	return nginxMismatchPrefix
}

// MissingTiming says, for a log_format as Decode reads it (spec as
// CompileLogFormat takes it; empty for the default, combined), when its
// lines give no start instant, so no latency figure: it names the format,
// the variable it lacks and the variables it has, for a warning to tell
// the user what to give. It returns "" for a format with $request_time.
func MissingTiming(spec string) (string, error) {
	formats, err := nginxFormats(spec)
	if err != nil {
		return "", err
	}
	name := "the log_format"
	if len(formats) > 1 {
		name = "combined"
	}
	var vars []string
	for _, v := range formats[0].vars {
		if v.name == "request_time" {
			return "", nil
		}
		vars = append(vars, "$"+v.name)
	}
	return fmt.Sprintf("%s has no $request_time, so its lines give no start instant (its variables: %s)",
		name, strings.Join(vars, " ")), nil
}
