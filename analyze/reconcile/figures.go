package reconcile

// The sections of analysis.json that reconciliation gives (SPEC §7):
// analyze.Analysis carries them as they are.

// Matching says how the requests of one outer/inner source pair were joined
// (client→proxy, proxy→server, client→server). Its counts satisfy, per pair:
//
//	matched = by_trace + by_id + by_time + by_chain
//	matched + ambiguous + unmatched_outer + outer_excluded = outer events
//	matched + inner_elsewhere + unmatched_inner = inner events
//
// where events are all the source's events (those on steady or relative
// clocks, which never join, count as unmatched). An observation joined
// through the other route is not unmatched: a server joined to its client
// directly is inner_elsewhere for proxy→server, one joined to a proxy is
// inner_elsewhere for client→server; the outers a pair does not try because
// another pair holds their request (a proxy whose client was joined to a
// server directly, a client whose proxy reached a server) are outer_excluded.
type Matching struct {
	Outer   string `json:"outer"`
	Inner   string `json:"inner"`
	Matched int64  `json:"matched"`
	ByTrace int64  `json:"by_trace"`
	ByID    int64  `json:"by_id"`
	ByTime  int64  `json:"by_time"`
	// ByChain counts client⊃proxy joins made through the server both were
	// joined to (the client directly, by id; the proxy by any method).
	ByChain        int64 `json:"by_chain"`
	Ambiguous      int64 `json:"ambiguous"`
	UnmatchedOuter int64 `json:"unmatched_outer"`
	UnmatchedInner int64 `json:"unmatched_inner"`
	// OuterExcluded counts the outers this pair does not try because
	// another pair holds their request; InnerElsewhere the inners it did
	// not join that the other route joined.
	OuterExcluded  int64 `json:"outer_excluded"`
	InnerElsewhere int64 `json:"inner_elsewhere"`
}

// ClockOffset is Host's clock minus Reference's clock: subtract OffsetMs from
// Host's instants to place them on Reference's clock. LowMs and HighMs bound it.
type ClockOffset struct {
	Host       string  `json:"host"`
	Reference  string  `json:"reference"`
	OffsetMs   float64 `json:"offset_ms"`
	LowMs      float64 `json:"low_ms"`
	HighMs     float64 `json:"high_ms"`
	Requests   int64   `json:"requests"`
	Consistent bool    `json:"consistent"`
	Via        string  `json:"via,omitempty"` // hosts chained through, when not measured directly
}

// BreakdownBand is the mean TTFT breakdown over the requests of one band
// ("all", "p50", "p90", "p99" of client TTFT). The parts add up to ClientTTFTMs.
type BreakdownBand struct {
	Band            string  `json:"band"`
	Requests        int64   `json:"requests"`
	ClientToProxyMs float64 `json:"client_to_proxy_ms"`
	ProxyToServerMs float64 `json:"proxy_to_server_ms"`
	ServerQueueMs   float64 `json:"server_queue_ms"`
	ServerPrefillMs float64 `json:"server_prefill_ms"`
	ServerOtherMs   float64 `json:"server_other_ms"`
	ReturnPathMs    float64 `json:"return_path_ms"`
	ClientTTFTMs    float64 `json:"client_ttft_ms"`
	// The network parts take each clock offset at the middle of the
	// interval its bounds allow, which assumes the network's delays are
	// the same both ways; the logs cannot show that. ClientToProxyRangeMs,
	// ProxyToServerRangeMs and ReturnPathRangeMs are where each part's mean
	// lies for offsets anywhere in their intervals (ClockOffset.LowMs …
	// HighMs), time moving between the network parts (and the offsets'
	// own resolution included).
	ClientToProxyRangeMs RangeMs `json:"client_to_proxy_range_ms"`
	ProxyToServerRangeMs RangeMs `json:"proxy_to_server_range_ms"`
	ReturnPathRangeMs    RangeMs `json:"return_path_range_ms"`
}

// RangeMs is an interval [LowMs, HighMs], ms.
type RangeMs struct {
	LowMs  float64 `json:"low_ms"`
	HighMs float64 `json:"high_ms"`
}

// Timeline is one request as seen by several observers, on the reference
// clock, in ms after the earliest instant shown.
type Timeline struct {
	Key  string         `json:"key"` // the id it was joined by
	Bars []TimelineSpan `json:"bars"`
}

// TimelineSpan is one observer's view of a Timeline's request.
type TimelineSpan struct {
	Source       string   `json:"source"`
	Host         string   `json:"host"`
	StartMs      float64  `json:"start_ms"`
	FirstTokenMs *float64 `json:"first_token_ms"`
	EndMs        *float64 `json:"end_ms"`
}
