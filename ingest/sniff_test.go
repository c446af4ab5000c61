package ingest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/jsonl"
	"github.com/ttftrace/ttftrace/ingest/tgi"
	"github.com/ttftrace/ttftrace/ingest/triton"
	"github.com/ttftrace/ttftrace/ingest/vllmbench"
)

// sniffers returns the names of the formats that claim data.
func sniffers(data []byte) []string {
	head := data[:min(len(data), decode.SniffSize)]
	var names []string
	for _, f := range Formats() {
		if f.Sniff(head) {
			names = append(names, f.Name())
		}
	}
	return names
}

// needsOptions reports whether a testdata file can only be read with a
// --log-format or --map, which sniffing cannot see (a custom nginx
// log_format, an Envoy JSON key map, a jsonl mapping).
func needsOptions(t *testing.T, path string) bool {
	b, err := os.ReadFile(path + ".opts.json")
	if err != nil {
		return false
	}
	var o struct {
		LogFormat string `json:"log_format"`
		Map       string `json:"map"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatal(err)
	}
	return o.LogFormat != "" || o.Map != ""
}

// TestSniffTestdata checks that every testdata file is detected as its own
// format and claimed by no other. A file that needs its --log-format or
// --map must at least not be claimed by another format.
func TestSniffTestdata(t *testing.T) {
	for _, f := range Formats() {
		for _, path := range testdataFiles(t, f.Name()) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got := sniffers(data)
			if needsOptions(t, path) {
				if len(got) > 1 || (len(got) == 1 && got[0] != f.Name()) {
					t.Errorf("%s: claimed by %v", path, got)
				}
				continue
			}
			if !slices.Equal(got, []string{f.Name()}) {
				t.Errorf("%s: sniffed as %v, want [%s]", path, got, f.Name())
			}
		}
	}
}

// TestSniffCorpus checks the real samples of ../shared/corpus (beside the
// project, absent in some checkouts): each log is detected as its format, and
// the files that are not logs (test YAML, recorded HTTP cassettes) as none.
func TestSniffCorpus(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Skip("no ../shared/corpus here")
	}
	want := map[string]string{
		"aiperf/aiperf_profile_export.jsonl":                                    "aiperf",
		"aiperf/aiperf_profile_export_aiperf.json":                              "aiperf", // sniffed to be refused with a reason
		"envoy/ai-gateway_accesslogs-doc_example.json":                          "envoy",
		"envoy/datadog_envoy_samples.log":                                       "envoy",
		"genai-perf/genai-perf_empty_profile_data.json":                         "genai-perf",
		"genai-perf/genai-perf_huggingface_generate_profile_data.json":          "genai-perf",
		"genai-perf/genai-perf_openai_completions_profile_data.json":            "genai-perf",
		"genai-perf/genai-perf_openai_profile_data.json":                        "genai-perf",
		"genai-perf/genai-perf_openai_vlm_profile_data.json":                    "genai-perf",
		"genai-perf/genai-perf_session_profile_data.json":                       "genai-perf",
		"genai-perf/genai-perf_tensorrtllm_engine_profile_data.json":            "genai-perf",
		"genai-perf/genai-perf_triton_profile_data.json":                        "genai-perf",
		"haproxy/datadog_haproxy_samples.log":                                   "haproxy",
		"har/mitmproxy_chrome.har":                                              "har",
		"har/mitmproxy_insomnia.har":                                            "har",
		"nginx/datadog_nginx_samples.log":                                       "nginx",
		"otel/ai-gateway_openinference_chat-streaming-detailed-usage.span.json": "otlp",
		"otel/opentelemetry-proto_examples_trace.json":                          "otlp",
		"triton/triton_trace_timestamps_doc_example.json":                       "triton",
	}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, ".md") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		got := sniffers(data)
		if name, ok := want[rel]; ok {
			if !slices.Equal(got, []string{name}) {
				t.Errorf("%s: sniffed as %v, want [%s]", rel, got, name)
			}
		} else if len(got) != 0 {
			t.Errorf("%s: not a log, but claimed by %v", rel, got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestServerFormatsSniff checks that each of the tgi, triton and vllm-bench
// formats claims its own testdata and none of the others', and that jsonl
// claims nothing.
func TestServerFormatsSniff(t *testing.T) {
	mine := []Format{tgi.Format{}, triton.Format{}, vllmbench.Format{}, jsonl.Format{}}
	for _, owner := range mine {
		for _, path := range testdataFiles(t, owner.Name()) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			head := data[:min(len(data), decode.SniffSize)]
			for _, f := range mine {
				want := f.Name() == owner.Name() && f.Name() != "jsonl"
				if got := f.Sniff(head); got != want {
					t.Errorf("%s.Sniff(%s) = %v, want %v", f.Name(), filepath.Base(path), got, want)
				}
			}
		}
	}
}
