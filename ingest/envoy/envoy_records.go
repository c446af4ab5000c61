package envoy

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ttftrace/ttftrace/ingest/decode"
)

// This file reads the records of an Envoy access log (see envoy.go): text
// lines by the format strings, JSON records by the key→operator map.

// envoyDecode is Decode.
func envoyDecode(in *decode.Input, sink decode.Sink) error {
	lf := strings.TrimSpace(in.Opts.LogFormat)
	if strings.HasPrefix(lf, "{") {
		var m map[string]string
		if err := json.Unmarshal([]byte(lf), &m); err != nil {
			return fmt.Errorf("envoy: --log-format is not a JSON object of strings: %v", err)
		}
		return envoyDecodeJSON(in.R, in, sink, m)
	}
	br := bufio.NewReaderSize(in.R, 64<<10)
	if lf == "" {
		if decode.PeekJSONStart(br) {
			return envoyDecodeJSON(br, in, sink, envoyDefaultJSONMap)
		}
	}
	specs := append([]string{envoyDefaultFormat}, envoyIstioFormats...)
	if lf != "" {
		specs = []string{in.Opts.LogFormat}
	}
	d := &envoyTextReader{specs: specs, custom: lf != ""}
	for _, s := range specs {
		f, err := parseEnvoyFormat(s)
		if err != nil {
			return fmt.Errorf("envoy: --log-format: %v", err)
		}
		d.plans = append(d.plans, newEnvoyTextPlan(f))
	}
	if !d.plans[0].hasStart() {
		d.missing = func([]byte) (string, string) { return envoyNoStartOp, "no %START_TIME% in the format" }
	}
	return decode.ReadRecordsByLine(br, sink, func(line int64, text []byte) {
		d.line(in, sink, line, text)
	})
}

// CompileLogFormat compiles spec as Decode would, a text format string or
// a JSON key→operator map, and returns why it cannot be read. A format
// that names no operator (%NAME%) reads no field and is refused, as is a
// map none of whose values is a single operator.
func CompileLogFormat(spec string) error {
	lf := strings.TrimSpace(spec)
	if strings.HasPrefix(lf, "{") {
		var m map[string]string
		if err := json.Unmarshal([]byte(lf), &m); err != nil {
			return fmt.Errorf("not a JSON object of strings: %v", err)
		}
		for _, op := range envoyKeyOps(m) {
			if op != nil {
				return nil
			}
		}
		return errors.New("JSON map has no value that is one %OPERATOR%")
	}
	f, err := parseEnvoyFormat(spec)
	if err != nil {
		return err
	}
	for _, t := range f {
		if t.op != nil {
			return nil
		}
	}
	return errors.New("format has no %OPERATOR%")
}

// envoyDecodeJSON reads JSON records with the key→operator map m: lines
// that start with '{' are tried as they come (a record cut over lines is
// joined by decode.JSONRecordsFast and read whole).
func envoyDecodeJSON(r io.Reader, in *decode.Input, sink decode.Sink, m map[string]string) error {
	d := newEnvoyJSONReader(envoyKeyOps(m))
	return decode.JSONRecordsFast(r, sink, func(line int64, t []byte) bool {
		return d.record(in, sink, line, t, false)
	}, func(line int64, raw []byte) {
		d.record(in, sink, line, raw, true)
	})
}

// envoyKeyOps parses the operator of each key of the key→operator map m
// once per input (parsing it per record was a third of the decode time);
// a key whose value is not a single operator maps to nil.
func envoyKeyOps(m map[string]string) map[string]*envoyOp {
	ops := make(map[string]*envoyOp, len(m))
	for k, op := range m {
		ops[k] = nil
		if f, err := parseEnvoyFormat(op); err == nil && len(f) == 1 && f[0].op != nil {
			ops[k] = f[0].op
		}
	}
	return ops
}
