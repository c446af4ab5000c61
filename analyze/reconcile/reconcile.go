// Package reconcile joins the observations of each request across the
// sources that saw it — client, proxy and server — and estimates the hosts'
// clock offsets (SPEC §4, §7). It holds the id and trace joins, the time,
// chain and end-only joins with their evidence and one-to-one assignment,
// the clock bounds, the offset search and the offset estimates, and what
// the joined requests give directly: one ReconciledRequest per joined
// request on a reference clock, the TTFT breakdown bands with their offset
// ranges, the slow examples, and the client − server TTFT deltas. The
// sections of analysis.json it gives (figures.go) are defined here.
//
// It does not hold the per-source figures, nor any statistic of the Metric
// kind: package analyze, which imports this one (never the reverse),
// summarizes TTFTDeltas, picks the slowest requests, notes the events on
// clocks that cannot join, and places Result's sections in analysis.json.
// Its parallel loops run in analyze/internal/parallel, as analyze's tasks do.
package reconcile

import (
	"github.com/ttftrace/ttftrace/analyze/internal/parallel"
	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
)

// Join methods, in the order SPEC §4 tries them. They are stored in
// ReconciledRequest and must stay stable.
const (
	JoinTrace = "trace" // equal W3C trace ids
	JoinID    = "id"    // a shared request or response id, after normalization
	JoinTime  = "time"  // the inner observation fits inside the outer one
	JoinChain = "chain" // client⊃proxy through the server both are joined to
)

// joinMethods are the join methods by the code joinPair.method stores.
var joinMethods = []string{"", JoinTrace, JoinID, JoinTime, JoinChain}

// Result is the result of joining the observations of each request
// across client, proxy and server (SPEC §4). Its first five fields feed
// analysis.json; Requests is the per-request table.
type Result struct {
	Matching      []Matching
	ClockOffsets  []ClockOffset
	TTFTBreakdown []BreakdownBand
	// TTFTDeltas are client TTFT − server TTFT in ms, each measured on its
	// own host's clock, over the successful requests joined at both
	// (through a proxy or not), in the order of Requests; nil when there
	// are none. analyze summarizes them (analysis.json's
	// ttft_client_minus_server).
	TTFTDeltas []float64
	Examples   []Timeline
	// Requests has one row per request joined across at least two sources,
	// in the order of the outermost observation's index in events; kept
	// only with Options.KeepRequests (Events keeps them).
	Requests []ReconciledRequest
	// ByReference counts the joined requests, kept or not, by the host
	// whose clock their instants are placed on (ReconciledRequest.Reference;
	// hosts without a name are not counted).
	ByReference map[string]int64
	// Notes are caveats a reader must know (contradicting clock bounds,
	// hosts without an offset, host pairs the offset search left apart).
	Notes []string
}

// ReconciledRequest is one request joined across sources, flat so that it
// can be written as one Parquet row. Instants are nanoseconds on the clock of
// Reference (the host's instant minus its estimated offset, SPEC §7); a nil
// field is an observer or instant that is absent. Breakdown parts are set
// only when client, proxy and server all saw the request and logged the
// instants the part spans, whatever the request's outcome (the bands and the
// TTFT delta keep only requests without an error class at client and server);
// they add up exactly to ClientTTFTNs. Its name is the root of the Parquet
// schema of `analyze --requests-out`, so it stays as it was before the
// package moved.
type ReconciledRequest struct {
	Reference string `parquet:"reference,dict"` // host whose clock the instants use

	ClientEvent        *int64 `parquet:"client_event,optional"` // index into the rows given to Columns
	ClientHost         string `parquet:"client_host,dict,optional"`
	ClientStartNs      *int64 `parquet:"client_start_ns,optional"`
	ClientFirstTokenNs *int64 `parquet:"client_first_token_ns,optional"`
	ClientEndNs        *int64 `parquet:"client_end_ns,optional"`
	ClientError        string `parquet:"client_error_class,dict,optional"` // schema.Error* of the client's observation

	ProxyEvent        *int64 `parquet:"proxy_event,optional"`
	ProxyHost         string `parquet:"proxy_host,dict,optional"`
	ProxyStartNs      *int64 `parquet:"proxy_start_ns,optional"`
	ProxyFirstTokenNs *int64 `parquet:"proxy_first_token_ns,optional"`
	ProxyEndNs        *int64 `parquet:"proxy_end_ns,optional"`
	// ProxyJoin is how the proxy observation was joined to the client's:
	// trace, id or time; empty without a client or proxy.
	ProxyJoin string `parquet:"proxy_join,dict,optional"`

	ServerEvent        *int64 `parquet:"server_event,optional"`
	ServerHost         string `parquet:"server_host,dict,optional"`
	ServerStartNs      *int64 `parquet:"server_start_ns,optional"`
	ServerFirstTokenNs *int64 `parquet:"server_first_token_ns,optional"`
	ServerEndNs        *int64 `parquet:"server_end_ns,optional"`
	ServerError        string `parquet:"server_error_class,dict,optional"`
	// ServerJoin is how the server observation was joined (trace, id or
	// time) and ServerJoinedTo to which source (proxy or client).
	ServerJoin     string `parquet:"server_join,dict,optional"`
	ServerJoinedTo string `parquet:"server_joined_to,dict,optional"`

	// ClientTTFTNs and ServerTTFTNs are first_token − start on each
	// observer's own clock.
	ClientTTFTNs *int64 `parquet:"client_ttft_ns,optional"`
	ServerTTFTNs *int64 `parquet:"server_ttft_ns,optional"`

	// The TTFT breakdown (SPEC §4), nanoseconds, on the reference clock.
	ClientToProxyNs *int64 `parquet:"client_to_proxy_ns,optional"` // proxy.start − client.start
	ProxyToServerNs *int64 `parquet:"proxy_to_server_ns,optional"` // server.start − proxy.start
	ServerQueueNs   *int64 `parquet:"server_queue_ns,optional"`    // the engine's queue time, when logged
	ServerPrefillNs *int64 `parquet:"server_prefill_ns,optional"`  // the engine's prefill time, when logged
	ServerOtherNs   *int64 `parquet:"server_other_ns,optional"`    // server TTFT − queue − prefill
	ReturnPathNs    *int64 `parquet:"return_path_ns,optional"`     // client.first_token − server.first_token

	// split refers to how far the three network parts (client→proxy,
	// proxy→server, return path) may move with the clock offsets anywhere
	// in their intervals: index + 1 into the reconciler's splitTable, 0
	// for none; not written.
	split int32
}

// Events reconciles events in memory, keeping Requests, as Columns does
// the rows of a dataset. inputs are the inputs the events were read from,
// matched by path to each event's InputFile: they say how far each input's
// logged instants may lie from the true ones; without them every instant
// is taken as logged to ±1 µs.
func Events(events []schema.Event, inputs []schema.InputStats) *Result {
	c, err := dataset.ColumnsOf(events, ColumnsOptions())
	if err != nil { // only beyond 255 distinct sources, clocks, formats or error classes
		return &Result{Notes: []string{"events not reconciled: " + err.Error()}}
	}
	return Columns(c, inputs, Options{KeepRequests: true})
}

// ColumnsOptions are the options reconciliation needs Columns read with:
// join keys normalized by normalizeID, and the client's ids as text (the
// examples name a request by them).
func ColumnsOptions() dataset.ColumnsOptions {
	return dataset.ColumnsOptions{IDKey: idKey, TextSources: []string{schema.SourceClient}}
}

// Options says how Columns runs and what it hands back.
type Options struct {
	// Workers is how many goroutines its loops run on (0: GOMAXPROCS);
	// PartSize, when set, is the size of every part they split into
	// (tests: neither may change the result).
	Workers, PartSize int
	// KeepRequests keeps Result.Requests (else nil).
	KeepRequests bool
	// IDsJoined, when set, is called once the id joins are done and their
	// index and the Columns' id columns released.
	IDsJoined func()
	// Each, when set, is called with every joined request a client saw
	// (with KeepRequests, with every joined request), in Requests' order;
	// it must copy what it keeps of it (unless KeepRequests, the next
	// request reuses its memory).
	Each func(q *ReconciledRequest)
}

// Columns joins the observations in the rows of c across sources (SPEC §4)
// and returns the joins, clock offsets and TTFT breakdown. c must have been
// read with ColumnsOptions (any more attributes do no harm); inputs give
// the facts of the inputs the rows were read from. It works in steps:
//
//  1. Id joins for the pairs client⊃proxy, proxy⊃server and client⊃server
//     (the last only for observations no proxy links): equal W3C trace ids
//     first, then any shared id after normalizeID. An id or trace id that
//     several observations of one source carry is ambiguous and unused.
//  2. Clock offsets per host pair from those joins (offsetBounds), chained
//     by breadth-first search to one reference host per connected group of
//     hosts: the host with the most client observations.
//  3. For host pairs that no chain of measured pairs relates, an offset
//     search over requests of near-equal durations (searchOffsets); pairs
//     where none is found clearly are not time-joined.
//  4. Time joins for what is left (joinTime): the inner observation must
//     fit inside the outer on corrected clocks, with compatible attributes;
//     the smallest round-trip slack wins unless a rival is within the
//     margin, in which case nothing is guessed and the outer is ambiguous.
//  5. Chain joins (joinChains): a client joined directly to a server that
//     a proxy holds takes that proxy when it fits on corrected clocks.
//  6. Offsets again from all joins, then one more round of time and chain
//     joins and a final estimate: the time joins' bounds tighten the
//     offsets, and hosts that no id join related get one.
//  7. A proxy ⊃ server join whose server a client holds directly, the
//     proxy not being joined to that client, is undone: each server is in
//     one request (releaseShadowedServers).
//  8. One ReconciledRequest per joined request on the reference clock, the
//     breakdown bands, the client−server TTFT delta and slow examples.
//
// Only events on wall clocks join; the others count as unmatched (analyze
// notes them). Cost is near-linear: a partitioned hash join for ids, and for time joins
// a sweep over starts sorted once, each outer scanning only the inner
// observations that start within about one round trip of it; the offset
// search, run only for host pairs no chain relates, sorts once and samples
// at most searchSample inner observations.
//
// It drops c's id columns (TraceID, IDKeys) once the id joins are done.
func Columns(c *dataset.Columns, inputs []schema.InputStats, opts Options) *Result {
	r := newReconciler(c, inputs, parallel.Split{Workers: opts.Workers, Part: opts.PartSize})
	r.joinAllIDs()
	if opts.IDsJoined != nil {
		opts.IDsJoined()
	}
	ck := r.estimateClocks()
	searchNotes := r.searchOffsets(ck)
	for round := 0; round < 2; round++ {
		r.joinAllTimes(ck)
		r.joinChains(ck)
		ck = r.estimateClocks()
	}
	r.bounds, r.ests, r.cp.fresh, r.ps.fresh, r.cs.fresh = nil, nil, nil, nil, nil
	r.releaseShadowedServers()
	out := &Result{Matching: r.matching(), ClockOffsets: ck.report()}
	sum := requestSummary{splits: &r.splits}
	refs := r.assemble(ck, func(q *ReconciledRequest) {
		sum.add(c, q)
		if opts.Each != nil {
			opts.Each(q)
		}
		if opts.KeepRequests {
			out.Requests = append(out.Requests, *q)
		}
	}, opts.KeepRequests)
	out.ByReference = map[string]int64{}
	for h, n := range refs {
		if n > 0 && r.hosts[h] != "" {
			out.ByReference[r.hosts[h]] += n
		}
	}
	out.TTFTBreakdown, out.TTFTDeltas, out.Examples = sum.bands(), sum.deltas, sum.examples()
	out.Notes = append(searchNotes, ck.notes...)
	return out
}

// joinAllIDs runs the trace and id joins of the three source pairs.
func (r *reconciler) joinAllIDs() {
	r.joinIDs(r.cp)
	r.joinIDs(r.ps)
	r.joinIDs(r.cs)
	// Nothing reads the ids after the id joins: their memory (about a
	// third of a proxy or server event's) goes back before the time joins
	// and the clock estimates allocate theirs.
	r.cols.TraceID, r.cols.IDKeys = dataset.ColumnsNullable[dataset.ColumnsID]{}, dataset.ColumnsList[dataset.ColumnsID]{}
}

// joinAllTimes runs one round of time-window joins for what is left.
func (r *reconciler) joinAllTimes(ck *clocks) {
	r.joinTime(r.cp, ck)
	r.joinTime(r.ps, ck)
	r.joinTime(r.cs, ck)
}
