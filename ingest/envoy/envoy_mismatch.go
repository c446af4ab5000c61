package envoy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// A text line no format fits is rejected for a reason that says what the
// format expected and what the line holds, so that the warning of an input
// most of whose lines are rejected tells the user what to give: the line
// is JSON (give the key→operator map), it is in Envoy's or Istio's default
// format (a --log-format given for a log written with the default), it has
// another number of fields than the format (fields as decode.LogFields
// splits them: quoted strings and [brackets] are one field), or which
// field of the format it does not fit. The reasons are few per format, so
// that the rejects of an input add up under them.

// envoyMismatchPrefix starts every reason of a line no format fits.
const envoyMismatchPrefix = "format mismatch"

// envoyShape is a format string as a whole and split into fields, for
// the reasons of the lines it does not fit.
type envoyShape struct {
	whole envoyTextPlan
	decode.LogShape
}

// newEnvoyShape splits the format string spec, named name, into fields,
// each with its own plan (nil for a field without operators, compared as
// it is).
func newEnvoyShape(name, spec string) *envoyShape {
	f, _ := parseEnvoyFormat(spec)
	fields := decode.LogFields(bytes.TrimRight([]byte(spec), "\r\n"))
	plans := make([]*envoyTextPlan, len(fields))
	for i, field := range fields {
		if ff, err := parseEnvoyFormat(string(field)); err == nil && envoyHasOp(ff) {
			p := newEnvoyTextPlan(ff)
			plans[i] = &p
		}
	}
	fits := func(i int, field []byte) bool {
		if p := plans[i]; p != nil {
			_, ok := p.match(field, nil)
			return ok
		}
		return bytes.Equal(field, fields[i])
	}
	return &envoyShape{newEnvoyTextPlan(f), decode.LogShape{Name: name, Fields: fields, Fits: fits}}
}

// envoyMismatch is what the text reader keeps for the reasons of the lines
// no format fits, made at the first such line.
type envoyMismatch struct {
	shapes []decode.LogShape // the reader's formats
	known  []*envoyShape     // Envoy's and Istio's defaults, when the user gave the format
}

// newEnvoyMismatch makes the shapes of the format strings specs; custom
// says the user gave the one format (else they are Envoy's and Istio's
// defaults).
func newEnvoyMismatch(specs []string, custom bool) *envoyMismatch {
	defaults := []*envoyShape{newEnvoyShape("Envoy's default format", envoyDefaultFormat)}
	for _, s := range envoyIstioFormats {
		defaults = append(defaults, newEnvoyShape("Istio's default format", s))
	}
	if !custom {
		m := &envoyMismatch{}
		for _, d := range defaults {
			m.shapes = append(m.shapes, d.LogShape)
		}
		return m
	}
	return &envoyMismatch{shapes: []decode.LogShape{newEnvoyShape("the format", specs[0]).LogShape}, known: defaults}
}

// reason returns the reason a line none of the formats fits is rejected for.
func (m *envoyMismatch) reason(line []byte) string {
	if t := bytes.TrimLeft(line, " "); len(t) > 0 && t[0] == '{' {
		return envoyMismatchPrefix + ": the line is JSON, give the key→operator map as --log-format"
	}
	for _, k := range m.known {
		if _, ok := k.whole.match(line, nil); ok {
			return fmt.Sprintf("%s: the line is in %s, leave --log-format out", envoyMismatchPrefix, k.Name)
		}
	}
	if why := decode.ShapeMismatch(line, m.shapes); why != "" {
		return envoyMismatchPrefix + ": " + why
	}
	return envoyMismatchPrefix
}

// envoyNoStartOp is the reason of the lines of a format string that names
// no %START_TIME%.
const envoyNoStartOp = envoyMissingStart + ": the format has no %START_TIME%"

// missingStart gives the reason a JSON record without a start instant is
// rejected for: the map names no %START_TIME%, or the record has none of
// the map's keys (then the detail lists the keys it has, to write the map
// with), or its %START_TIME% keys are absent, null or "-".
func (d *envoyJSONReader) missingStart(raw []byte) (string, string) {
	var starts []string
	any := false
	for r, op := range d.ops {
		if op != nil && op.code == ecStart {
			starts = append(starts, d.keys[r])
		}
		any = any || d.seen[r] == d.rec
	}
	switch {
	case len(starts) == 0:
		return envoyMissingStart + ": the key map has no %START_TIME%", "no key of the map is %START_TIME%"
	case !any:
		return envoyMissingStart + ": the record has none of the map's keys", "keys: " + envoyRecordKeys(raw)
	}
	return envoyMissingStart + ": no value for " + strings.Join(starts, " or "), "no %START_TIME% value"
}

// envoyRecordKeys lists the keys of the JSON object raw, as written.
func envoyRecordKeys(raw []byte) string {
	var keys []string
	var stack []byte
	jsonwalk.WalkObject(raw, 0, func(key []byte, j int) int {
		keys = append(keys, string(key))
		return jsonwalk.Skip(raw, j, &stack)
	})
	return strings.Join(keys, ", ")
}

// MissingTiming says, for a --log-format as Decode reads it (spec as
// CompileLogFormat takes it; empty for the defaults), when its entries
// give no latency figure: no %START_TIME%, or no instant after it
// (%DURATION%, %RESPONSE_DURATION% or %COMMON_DURATION(DS_RX_BEG:…)% to
// US_RX_BEG, US_RX_BODY_BEG or DS_TX_END). It names what is lacking and the
// operators the format has, for a warning to tell the user what to give,
// and returns "" for a format that has both.
func MissingTiming(spec string) (string, error) {
	if err := CompileLogFormat(spec); spec != "" && err != nil {
		return "", err
	}
	name, ops := envoyFormatOps(spec)
	start, after := timingOps(ops)
	var names []string
	for _, op := range ops {
		names = append(names, envoyOpText(*op))
	}
	lack := ""
	switch {
	case !start:
		lack = "no %START_TIME%, so its entries give no start instant"
	case !after:
		lack = "no %DURATION%, %RESPONSE_DURATION% or %COMMON_DURATION(DS_RX_BEG:…)%, so its entries give no instant after the start"
	default:
		return "", nil
	}
	return fmt.Sprintf("%s has %s (its operators: %s)", name, lack, strings.Join(names, " ")), nil
}

// timingOps reports whether ops log the start (%START_TIME%) and an
// instant after it (a duration, or a COMMON_DURATION to a point).
func timingOps(ops []*envoyOp) (start, after bool) {
	for _, op := range ops {
		p := compileEnvoyOp(*op)
		start = start || p.code == ecStart
		after = after || p.code == ecDuration || p.code == ecRespDuration || p.point >= 0
	}
	return start, after
}

// envoyFormatOps returns the name and the operators of a --log-format: a
// JSON key→operator map's values in key order, or a format string's.
func envoyFormatOps(spec string) (string, []*envoyOp) {
	lf := strings.TrimSpace(spec)
	if strings.HasPrefix(lf, "{") {
		var m map[string]string
		_ = json.Unmarshal([]byte(lf), &m)
		keyOps := envoyKeyOps(m)
		var ops []*envoyOp
		for _, k := range slices.Sorted(maps.Keys(keyOps)) {
			if keyOps[k] != nil {
				ops = append(ops, keyOps[k])
			}
		}
		return "the key map", ops
	}
	name := "the format"
	if lf == "" {
		spec, name = envoyDefaultFormat, "Envoy's default format"
	}
	f, _ := parseEnvoyFormat(spec)
	var ops []*envoyOp
	for _, t := range f {
		if t.op != nil {
			ops = append(ops, t.op)
		}
	}
	return name, ops
}

// envoyOpText writes an operator as a format string would: %NAME(ARG)%.
func envoyOpText(op envoyOp) string {
	if op.arg == "" {
		return "%" + op.name + "%"
	}
	return "%" + op.name + "(" + op.arg + ")%"
}

// envoyHasOp reports whether f holds an operator.
func envoyHasOp(f envoyFormat) bool {
	for _, t := range f {
		if t.op != nil {
			return true
		}
	}
	return false
}
