package report

import (
	"strings"

	"github.com/ttftrace/ttftrace/analyze"
)

// throughputRow is one source's whole-span throughput, formatted.
type throughputRow struct {
	Source, Span, Seconds, Requests, RequestRate, OutputTPS, Goodput, GoodShare string
}

func throughputRows(a *analyze.Analysis) []throughputRow {
	var rows []throughputRow
	for _, t := range a.Throughput {
		r := throughputRow{Source: t.Source, Span: t.First + " → " + t.Last, Seconds: fmtValue(t.Seconds),
			Requests: fmtCount(t.Requests), RequestRate: fmtValue(t.RequestRate), OutputTPS: "—", Goodput: "—", GoodShare: ""}
		if t.OutputTokens > 0 {
			r.OutputTPS = fmtValue(t.OutputTPS)
		}
		if t.Goodput != nil && t.GoodShare != nil {
			r.Goodput, r.GoodShare = fmtValue(*t.Goodput), fmtPct(*t.GoodShare)+" of requests"
		}
		rows = append(rows, r)
	}
	return rows
}

// slowSection is the table of the slowest client requests.
type slowSection struct {
	Empty      string
	Rows       []slowRow
	References string // which clocks the breakdowns use
}

type slowRow struct {
	Rank, Key, RequestID, Start, Host, Model, ClientTTFT, ServerTTFT string
	Parts                                                            []string
	Joined                                                           string
}

func buildSlowest(a *analyze.Analysis) slowSection {
	s := slowSection{References: referenceLine(a)}
	for i, q := range a.Slowest {
		r := slowRow{Rank: fmtCount(int64(i + 1)), Key: orDash(q.Key), Start: orDash(q.Start), Host: q.Host,
			Model: orDash(q.Model), ClientTTFT: fmtValue(q.ClientTTFTMs), ServerTTFT: optMs(q.ServerTTFTMs), Joined: "not joined"}
		if q.RequestID != "" && q.RequestID != q.Key {
			r.RequestID = q.RequestID
		}
		for _, p := range []*float64{q.ClientToProxyMs, q.ProxyToServerMs, q.ServerQueueMs, q.ServerPrefillMs, q.ServerOtherMs, q.ReturnPathMs} {
			r.Parts = append(r.Parts, optMs(p))
		}
		if q.Reference != "" {
			r.Joined = joinedBy(q.ProxyJoin, q.ServerJoin)
		}
		s.Rows = append(s.Rows, r)
	}
	if len(s.Rows) == 0 {
		s.Empty = "The analysis lists no slowest requests: no successful client request logged its first token (or analysis.json was written by an older ttftrace)."
	}
	return s
}

// joinedBy says how the proxy and server observations were joined.
func joinedBy(proxy, server string) string {
	var parts []string
	if proxy != "" {
		parts = append(parts, "proxy by "+proxy)
	}
	if server != "" {
		parts = append(parts, "server by "+server)
	}
	return strings.Join(parts, ", ")
}

func optMs(p *float64) string {
	if p == nil {
		return "—"
	}
	return fmtValue(*p)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// referenceLine names the reference clocks of the corrected instants:
// "Corrected instants use the clock of web-1 (400 joined requests)."
func referenceLine(a *analyze.Analysis) string {
	if len(a.ReferenceClocks) == 0 {
		return ""
	}
	var parts []string
	for _, r := range a.ReferenceClocks {
		parts = append(parts, r.Host+" ("+fmtCount(r.Requests)+" joined requests)")
	}
	noun := "the clock of "
	if len(parts) > 1 {
		noun = "the clocks of "
	}
	return "Reference clock: corrected instants (the TTFT breakdown, the example timelines, the slowest requests' parts) use " +
		noun + strings.Join(parts, "; ") + ". Every other host's instants are shifted by its offset to that clock."
}
