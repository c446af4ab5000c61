package report

import (
	"strings"

	"github.com/ttftrace/ttftrace/analyze"
)

// proxyFirstToken says, for each proxy log format that logs a first_token
// instant, which instant that is. The other proxy formats (nginx, HAProxy)
// log none, so a proxy's TTFT comes from these formats only and means what
// they measure, never the first token the client saw.
var proxyFirstToken = []struct{ Format, Name, Instant string }{
	{"envoy", "Envoy", "first upstream body byte"},
	{"litellm", "LiteLLM", "first chunk from the upstream"},
}

// proxyTTFTPoint names what proxy TTFT spans in this analysis, from the
// proxy's formats: "start → first upstream body byte (Envoy only)"; "" when
// no proxy format here logs a first token.
func proxyTTFTPoint(a *analyze.Analysis) string {
	var formats []string
	for _, s := range a.Sources {
		if s.Source == "proxy" {
			formats = s.Formats
		}
	}
	var parts []string
	for _, p := range proxyFirstToken {
		if contains(formats, p.Format) {
			parts = append(parts, p.Instant+" ("+p.Name+")")
		}
	}
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return "start → " + strings.TrimSuffix(parts[0], ")") + " only)"
	}
	return "start → " + strings.Join(parts, " or ")
}

// proxySpans names what a proxy's metrics span (SPEC §1): its headers are
// the upstream response headers it received and its end the last byte it
// sent downstream; ttft is proxyTTFTPoint.
func proxySpans(a *analyze.Analysis, metric string) string {
	switch metric {
	case "ttft":
		return proxyTTFTPoint(a)
	case "time_to_headers":
		return "start → upstream response headers"
	case "e2e":
		return "start → last byte sent downstream"
	}
	return ""
}

// measurementNotes names the measurement point of the proxy's TTFT when the
// analysis holds one, with how many of the proxy's successful requests
// carry it.
func measurementNotes(a *analyze.Analysis) []string {
	point := proxyTTFTPoint(a)
	if point == "" {
		return nil
	}
	var succeeded int64
	for _, s := range a.Sources {
		if s.Source == "proxy" {
			succeeded = s.Succeeded
		}
	}
	for _, m := range a.Metrics {
		if m.Source == "proxy" && m.Metric == "ttft" && len(m.Group) == 0 {
			return []string{"Proxy TTFT = " + point + ": " + fmtCount(m.Count) + " of the proxy's " + fmtCount(succeeded) +
				" successful requests carry it. It is when the proxy received the engine's first body byte, not when the client got its first token; proxy formats without that instant (nginx, HAProxy) give none."}
		}
	}
	return nil
}
