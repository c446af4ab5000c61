package fleet

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// NginxLogFormat is the log_format edge-1 writes with.
const NginxLogFormat = `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" rt=$request_time uct="$upstream_connect_time" uht="$upstream_header_time" urt="$upstream_response_time" msec=$msec rid=$http_x_request_id tp=$http_traceparent`

// EnvoyLogFormat is the JSON key→operator map edge-2 writes with.
const EnvoyLogFormat = `{"start_time":"%START_TIME%","method":"%REQ(:METHOD)%","path":"%REQ(X-ENVOY-ORIGINAL-PATH?:PATH)%","protocol":"%PROTOCOL%","response_code":"%RESPONSE_CODE%","response_flags":"%RESPONSE_FLAGS%","duration":"%DURATION%","response_duration":"%RESPONSE_DURATION%","first_body_byte":"%COMMON_DURATION(DS_RX_BEG:US_RX_BODY_BEG:ms)%","upstream_service_time":"%RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)%","x_request_id":"%REQ(X-REQUEST-ID)%","traceparent":"%REQ(TRACEPARENT)%","upstream_host":"%UPSTREAM_HOST%","user_agent":"%REQ(USER-AGENT)%"}`

// File is one log the fleet writes.
type File struct {
	Name   string // file name inside the output folder
	Format string // ttftrace --format name
	Host   string
}

// WriteAll writes every host's log into dir, plus nginx.log_format and
// envoy.format.json, and returns the logs written.
func (f *Fleet) WriteAll(dir string) ([]File, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "nginx.log_format"), []byte(NginxLogFormat+"\n"), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "envoy.format.json"), []byte(EnvoyLogFormat+"\n"), 0o644); err != nil {
		return nil, err
	}
	var files []File
	for _, h := range f.Hosts {
		name := h.Name + map[string]string{
			"ttftrace-client": ".client.jsonl", "genai-perf": ".profile_export.json",
			"nginx": ".access.log", "envoy": ".access.json", "otlp": ".spans.jsonl", "tgi": ".router.log",
		}[h.Format]
		if err := writeFile(filepath.Join(dir, name), func(w io.Writer) error { return f.WriteHost(w, h) }); err != nil {
			return nil, err
		}
		files = append(files, File{Name: name, Format: h.Format, Host: h.Name})
	}
	return files, nil
}

func writeFile(path string, write func(io.Writer) error) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(out, 1<<20)
	if err := write(bw); err != nil {
		out.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// WriteHost writes host h's log in its format to w.
func (f *Fleet) WriteHost(w io.Writer, h *Host) error {
	switch h.Format {
	case "ttftrace-client":
		return f.writeClient(w, h)
	case "genai-perf":
		return f.writeGenAIPerf(w, h)
	case "nginx":
		return f.writeNginx(w, h)
	case "envoy":
		return f.writeEnvoy(w, h)
	case "otlp":
		return f.writeOTLP(w, h)
	case "tgi":
		return f.writeTGI(w, h)
	}
	return fmt.Errorf("fleet: no writer for format %q", h.Format)
}

// ClientChunkTimes returns the true instants the client received each output
// token: the server's token instant plus the return path and a small jitter,
// never earlier than the chunk before.
func (r *Request) ClientChunkTimes() []int64 {
	tt := r.TokenTimes()
	if r.ClientFirst == 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(r.Seed, 2))
	out := make([]int64, len(tt))
	prev := int64(0)
	for i, t := range tt {
		c := t + r.ReturnNs
		if i > 0 {
			c += int64(rng.Float64() * 2e6)
		}
		if c < prev {
			c = prev
		}
		out[i], prev = c, c
	}
	return out
}

// msFloat appends ns as milliseconds with microsecond precision.
func msFloat(b []byte, ns int64) []byte {
	return strconv.AppendFloat(b, float64(ns/1000)/1000, 'f', -1, 64)
}

func rfc3339(ns int64) string {
	return time.Unix(0, ns).UTC().Format("2006-01-02T15:04:05.000000000Z07:00")
}

func (f *Fleet) writeClient(w io.Writer, h *Host) error {
	b := make([]byte, 0, 64<<10)
	for _, r := range f.Logged(h) {
		start := r.ClientStart + h.OffsetNs
		b = append(b[:0], `{"request_id":`...)
		b = strconv.AppendQuote(b, r.RequestID)
		if r.TraceID != "" {
			b = append(b, `,"trace_id":`...)
			b = strconv.AppendQuote(b, r.TraceID)
		}
		b = append(b, `,"start":"`...)
		b = append(b, rfc3339(start)...)
		b = append(b, `","model":"`...)
		b = append(b, r.Model...)
		b = append(b, `","endpoint":"/v1/chat/completions","stream":true,"status":`...)
		b = strconv.AppendInt(b, int64(r.Status), 10)
		if r.ErrorClass == "interrupted" {
			b = append(b, `,"error":"stream_interrupted"`...)
		}
		b = append(b, `,"prompt_tokens":`...)
		b = strconv.AppendInt(b, int64(r.PromptTokens), 10)
		if r.Status == 200 && r.ErrorClass == "" {
			b = append(b, `,"output_tokens":`...)
			b = strconv.AppendInt(b, int64(r.OutputTokens), 10)
		}
		b = append(b, `,"end_ms":`...)
		b = msFloat(b, r.ClientEnd-r.ClientStart)
		b = append(b, `,"chunks":[`...)
		if r.Status == 200 {
			b = append(b, `{"t_ms":`...)
			b = msFloat(b, r.ClientHeaders-r.ClientStart)
			b = append(b, `,"kind":"role"}`...)
			for _, t := range r.ClientChunkTimes() {
				b = append(b, `,{"t_ms":`...)
				b = msFloat(b, t-r.ClientStart)
				b = append(b, `,"tokens":1,"kind":"content"}`...)
			}
			if r.ErrorClass == "" {
				b = append(b, `,{"t_ms":`...)
				b = msFloat(b, r.ClientEnd-r.ClientStart)
				b = append(b, `,"kind":"usage"}`...)
			}
		}
		b = append(b, `],"attrs":{"region":"`...)
		b = append(b, []string{"eu-west", "us-east"}[r.Index%2]...)
		b = append(b, `","app":"chat-web"}}`+"\n"...)
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}
