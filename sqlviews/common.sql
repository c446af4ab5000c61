{{define "events" -}}
-- ttft_events: every event of the dataset, with success = the request
-- counts for latency metrics (no error class, status 2xx or not logged, the
-- stream not known to be cut short).
CREATE OR REPLACE VIEW ttft_events AS
SELECT
  *,
  (error_class IS NULL OR error_class = '')
    AND (status IS NULL OR status BETWEEN 200 AND 299)
    AND (completed IS NULL OR completed) AS success
FROM {{.Relation}};

-- grouped_events: every event once in group {} (group_key '', no
-- group_values) and once more per --by breakdown this file was printed
-- with: group_key names its keys joined by + (model, model+host),
-- group_values holds the event's values of those keys, "(none)" for a
-- missing or empty one. Every view below keeps both columns; filter
-- group_key = '' for one row per event.
CREATE OR REPLACE VIEW grouped_events AS
{{.Groups}};
{{- end}}

{{define "window" -}}
CASE WHEN clock = 'wall' AND start_ns IS NOT NULL
    THEN start_ns - ((start_ns % {{.WindowNs}}) + {{.WindowNs}}) % {{.WindowNs}}
  END AS window_ns
{{- end}}

{{define "metrics" -}}
-- request_metrics: one row per event and group, latencies in ms (NULL when
-- an instant is not logged), tps_user in tokens/s; failure_class is NULL
-- for a success.
CREATE OR REPLACE VIEW request_metrics AS
WITH m AS (
  SELECT
    *,
    CASE WHEN tokens > 1
      THEN CAST(last_ns - first_ns AS DOUBLE) / 1e6 / CAST(tokens - 1 AS DOUBLE)
    END AS tpot
  FROM request_instants
)
SELECT
  source, host, model, endpoint, success, group_key, group_values, window_ns,
  input_file, input_line,
  tokens AS output_tokens,
  CAST(first_ns - start_ns AS DOUBLE) / 1e6 AS ttft_ms,
  CAST(end_ns - start_ns AS DOUBLE) / 1e6 AS e2e_ms,
  tpot AS tpot_ms,
  CAST(headers_ns - start_ns AS DOUBLE) / 1e6 AS time_to_headers_ms,
  CAST(queue_ns AS DOUBLE) / 1e6 AS queue_ms,
  CAST(prefill_ns AS DOUBLE) / 1e6 AS prefill_ms,
  CAST(decode_ns AS DOUBLE) / 1e6 AS decode_ms,
  CASE WHEN tpot > 0 THEN 1000 / tpot END AS tps_user,
  CASE
    WHEN success THEN NULL
    WHEN error_class IS NOT NULL AND error_class <> '' THEN error_class
    WHEN completed = false AND (status IS NULL OR status BETWEEN 200 AND 299) THEN 'interrupted'
    WHEN status IS NULL THEN 'interrupted'
    WHEN status = 429 THEN 'rate_limited'
    WHEN status IN (408, 504) THEN 'timeout'
    WHEN status = 499 THEN 'interrupted'
    WHEN status BETWEEN 400 AND 499 THEN 'client_error'
    WHEN status BETWEEN 500 AND 599 THEN 'server_error'
    ELSE 'other_status'
  END AS failure_class
FROM m;
{{- end}}

{{define "samples" -}}
-- metric_samples: every sample of every metric, one row each, in the order
-- analyze reports them (metric_order): the per-request metrics of
-- request_metrics, the pooled itl_samples and the chunk_gaps. weight is how
-- many equal samples the row stands for (an ITL row: the tokens of its
-- chunk; every other row: 1).
CREATE OR REPLACE VIEW metric_samples AS
SELECT source, host, model, endpoint, success, group_key, group_values, window_ns,
  1 AS metric_order, 'ttft' AS metric, 'ms' AS unit, ttft_ms AS value, CAST(1 AS BIGINT) AS weight
FROM request_metrics WHERE ttft_ms IS NOT NULL
UNION ALL
SELECT source, host, model, endpoint, success, group_key, group_values, window_ns, 2, 'time_to_headers', 'ms', time_to_headers_ms, 1
FROM request_metrics WHERE time_to_headers_ms IS NOT NULL
UNION ALL
SELECT source, host, model, endpoint, success, group_key, group_values, window_ns, 3, 'e2e', 'ms', e2e_ms, 1
FROM request_metrics WHERE e2e_ms IS NOT NULL
UNION ALL
SELECT source, host, model, endpoint, success, group_key, group_values, window_ns, 4, 'tpot', 'ms', tpot_ms, 1
FROM request_metrics WHERE tpot_ms IS NOT NULL
UNION ALL
SELECT source, host, model, endpoint, success, group_key, group_values, window_ns, 5, 'itl', 'ms', itl_ms, tokens
FROM itl_samples
UNION ALL
SELECT source, host, model, endpoint, success, group_key, group_values, window_ns, 6, 'chunk_gap', 'ms', gap_ms, 1
FROM chunk_gaps
UNION ALL
SELECT source, host, model, endpoint, success, group_key, group_values, window_ns, 7, 'tps_user', 'tokens/s', tps_user, 1
FROM request_metrics WHERE tps_user IS NOT NULL
UNION ALL
SELECT source, host, model, endpoint, success, group_key, group_values, window_ns, 8, 'queue', 'ms', queue_ms, 1
FROM request_metrics WHERE queue_ms IS NOT NULL
UNION ALL
SELECT source, host, model, endpoint, success, group_key, group_values, window_ns, 9, 'prefill', 'ms', prefill_ms, 1
FROM request_metrics WHERE prefill_ms IS NOT NULL
UNION ALL
SELECT source, host, model, endpoint, success, group_key, group_values, window_ns, 10, 'decode', 'ms', decode_ms, 1
FROM request_metrics WHERE decode_ms IS NOT NULL;
{{- end}}

{{define "weighted" -}}
-- Exact type 7 percentiles from weighted samples with window functions
-- only (a sort per group, which engines spill to disk): with a group's
-- samples sorted, a row of weight w ending at cumulative weight upto holds
-- the ranks upto − w … upto − 1 (from 0). For n samples and h = (n − 1)·q
-- the percentile is x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]).
WITH ranked AS (
  SELECT
    {{.Part}}, value, weight,
    sum(weight) OVER (PARTITION BY {{.Part}} ORDER BY value
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS upto,
    sum(weight) OVER (PARTITION BY {{.Part}}) AS n,
    sum(CAST(weight AS DOUBLE) * value) OVER (PARTITION BY {{.Part}})
      / CAST(sum(weight) OVER (PARTITION BY {{.Part}}) AS DOUBLE) AS mean
  FROM {{.From}}
),
levels AS (
  SELECT *,
    floor(CAST(n - 1 AS DOUBLE) * 0.5) AS r50, floor(CAST(n - 1 AS DOUBLE) * 0.9) AS r90,
    floor(CAST(n - 1 AS DOUBLE) * 0.95) AS r95, floor(CAST(n - 1 AS DOUBLE) * 0.99) AS r99,
    floor(CAST(n - 1 AS DOUBLE) * 0.999) AS r999
  FROM ranked
),
picked AS (
  SELECT
    {{.Part}},
    max(n) AS count, max(mean) AS mean,
    sqrt(sum(CAST(weight AS DOUBLE) * (value - mean) * (value - mean)) / CAST(max(n) AS DOUBLE)) AS std,
    min(value) AS min, max(value) AS max,
{{- range $i, $q := .Levels}}
    max(CASE WHEN upto - weight <= r{{$q.Name}} AND r{{$q.Name}} < upto THEN value END) AS lo{{$q.Name}},
    max(CASE WHEN upto - weight <= r{{$q.Name}} + 1 AND r{{$q.Name}} + 1 < upto THEN value END) AS hi{{$q.Name}}{{if not (last $i $.Levels)}},{{end}}
{{- end}}
  FROM levels
  GROUP BY {{.Part}}
)
SELECT
  {{.Part}}, count, mean, std, min,
{{- range .Levels}}
  lo{{.Name}} + (CAST(count - 1 AS DOUBLE) * {{.Q}} - floor(CAST(count - 1 AS DOUBLE) * {{.Q}}))
    * (coalesce(hi{{.Name}}, lo{{.Name}}) - lo{{.Name}}) AS p{{.Name}},
{{- end}}
  max
FROM picked
{{- end}}

{{define "errors" -}}
-- error_counts: failed requests per source, group and failure class
-- (analyze's "errors"): the error class when logged, else interrupted for a
-- stream cut short, else the class of the HTTP status.
CREATE OR REPLACE VIEW error_counts AS
SELECT source, group_key, group_values, failure_class, count(*) AS requests
FROM request_metrics
WHERE NOT success
GROUP BY source, group_key, group_values, failure_class;
{{- end}}

{{define "series" -}}
-- timeseries_requests: per source and window of {{.Window}} (window_ns: its
-- start, ns since 1970 UTC, aligned to multiples of the width; requests on
-- wall clocks, placed by their start): requests started, their rate per
-- second, the failed ones and their fraction.
CREATE OR REPLACE VIEW timeseries_requests AS
SELECT
  source, window_ns, count(*) AS requests,
  CAST(count(*) AS DOUBLE) / {{.WindowSeconds}} AS request_rate,
  sum(CASE WHEN success THEN 0 ELSE 1 END) AS failed,
  CAST(sum(CASE WHEN success THEN 0 ELSE 1 END) AS DOUBLE) / CAST(count(*) AS DOUBLE) AS error_rate
FROM request_metrics
WHERE group_key = '' AND window_ns IS NOT NULL
GROUP BY source, window_ns;

-- timeseries_errors: per source, window and failure class: the failed
-- requests and their fraction of the requests started in the window
-- (analyze's error_rate.<class> series).
CREATE OR REPLACE VIEW timeseries_errors AS
SELECT
  e.source, e.window_ns, e.failure_class, e.failures,
  CAST(e.failures AS DOUBLE) / CAST(r.requests AS DOUBLE) AS error_rate
FROM (
  SELECT source, window_ns, failure_class, count(*) AS failures
  FROM request_metrics
  WHERE group_key = '' AND window_ns IS NOT NULL AND NOT success
  GROUP BY source, window_ns, failure_class
) e
JOIN timeseries_requests r ON r.source = e.source AND r.window_ns = e.window_ns;
{{- end}}

{{define "pairjoin" -}}
WITH c AS (
  SELECT * FROM {{.}}
),
t AS (
  SELECT outer_source, inner_source, outer_event, inner_event FROM c WHERE kind = 'trace'
),
i AS (
  SELECT outer_source, inner_source, outer_event, min(inner_event) AS inner_event
  FROM c
  WHERE kind = 'id'
  GROUP BY outer_source, inner_source, outer_event
  HAVING count(DISTINCT inner_event) = 1
),
free AS (
  SELECT i.*, count(*) OVER (PARTITION BY outer_source, inner_source, inner_event) AS claims
  FROM i
  WHERE NOT EXISTS (SELECT 1 FROM t WHERE t.outer_source = i.outer_source
      AND t.inner_source = i.inner_source AND t.outer_event = i.outer_event)
    AND NOT EXISTS (SELECT 1 FROM t WHERE t.outer_source = i.outer_source
      AND t.inner_source = i.inner_source AND t.inner_event = i.inner_event)
)
SELECT outer_source, inner_source, outer_event, inner_event, 'trace' AS method FROM t
UNION ALL
SELECT outer_source, inner_source, outer_event, inner_event, 'id' FROM free WHERE claims = 1
{{- end}}

{{define "joins" -}}
-- join_events: the events on wall clocks, the ones the joins consider
-- (steady and relative clocks cannot be related), each named by event_id.
CREATE OR REPLACE VIEW join_events AS
SELECT
  source, host, error_class,
  input_file || ':' || CAST(input_line AS {{.Str}}) || ':' || coalesce(span_id, '')
    || ':' || coalesce(CAST(start_ns AS {{.Str}}), '') AS event_id,
  trace_id, request_id, response_id, other_ids,
  start_ns, first_token_ns, end_ns, queue_ns, prefill_ns
FROM ttft_events
WHERE clock = 'wall' AND source IN ('client', 'proxy', 'server');

-- join_ids: the keys each event can be joined by: its W3C trace id (kind
-- trace) and its request, response and other ids after analyze's
-- normalization (kind id): spaces trimmed, vLLM's chatcmpl- and cmpl-
-- prefixes dropped, a UUID or long hex id (also after req_ or req-)
-- folded to lowercase hex without dashes.
CREATE OR REPLACE VIEW join_ids AS
SELECT DISTINCT source, event_id, 'trace' AS kind, trace_id AS id
FROM join_events
WHERE trace_id IS NOT NULL AND trace_id <> ''
UNION ALL
SELECT DISTINCT source, event_id, 'id' AS kind, id
FROM (
  SELECT source, event_id,
    {{.NormID}} AS id
  FROM (
    SELECT source, event_id,
    {{.StrippedID}} AS stripped
    FROM (
      SELECT source, event_id, request_id AS raw FROM join_events
      UNION ALL
      SELECT source, event_id, response_id FROM join_events
      UNION ALL
      {{.OtherIDs}}
    ) r
  ) s
) n
WHERE id IS NOT NULL;

-- id_join_candidates: per source pair (outer ⊃ inner: client ⊃ proxy,
-- proxy ⊃ server, client ⊃ server), the outer and inner events sharing a
-- key that one event of each source carries (a key several events of a
-- source carry is ambiguous and unused).
CREATE OR REPLACE VIEW id_join_candidates AS
WITH u AS (
  SELECT source, kind, id, min(event_id) AS event_id
  FROM join_ids
  GROUP BY source, kind, id
  HAVING count(DISTINCT event_id) = 1
),
pairs AS (
  SELECT 'client' AS outer_source, 'proxy' AS inner_source
  UNION ALL SELECT 'proxy', 'server'
  UNION ALL SELECT 'client', 'server'
)
SELECT p.outer_source, p.inner_source, o.kind, o.event_id AS outer_event, i.event_id AS inner_event
FROM pairs p
JOIN u o ON o.source = p.outer_source
JOIN u i ON i.source = p.inner_source AND i.kind = o.kind AND i.id = o.id;

-- id_joins: the requests joined by id, as analyze's first step joins them
-- (method trace or id): by trace id first; else by the one inner event
-- the outer's ids lead to, when that inner is still free and no other
-- outer claims it. client ⊃ server joins only a client whose proxy is not
-- joined to a server, and a server no proxy holds. The requests analyze
-- then joins by time window are not here.
{{create "id_joins" .Materialize}}
WITH direct AS (
{{template "pairjoin" "(SELECT * FROM id_join_candidates WHERE inner_source = 'proxy' OR outer_source = 'proxy') cp"}}
),
cs AS (
{{template "pairjoin" "(SELECT * FROM id_join_candidates c WHERE c.outer_source = 'client' AND c.inner_source = 'server' AND NOT EXISTS (SELECT 1 FROM direct ps WHERE ps.outer_source = 'proxy' AND ps.inner_event = c.inner_event) AND NOT EXISTS (SELECT 1 FROM direct cp JOIN direct ps ON ps.outer_source = 'proxy' AND ps.outer_event = cp.inner_event WHERE cp.outer_source = 'client' AND cp.outer_event = c.outer_event)) cs"}}
)
SELECT * FROM direct
UNION ALL
SELECT * FROM cs;

-- id_matching: per source pair, the requests joined by trace id and by
-- request id (analyze's matching by_trace and by_id).
CREATE OR REPLACE VIEW id_matching AS
SELECT outer_source, inner_source,
  sum(CASE WHEN method = 'trace' THEN 1 ELSE 0 END) AS by_trace,
  sum(CASE WHEN method = 'id' THEN 1 ELSE 0 END) AS by_id
FROM id_joins
GROUP BY outer_source, inner_source;

-- clock_bounds: per host pair of id-joined requests, the bounds on
-- θ = inner host's clock − outer host's clock, ms: every request with
-- start and end at both gives inner.end − outer.end ≤ θ ≤ inner.start −
-- outer.start, and, where the inner's first token precedes the outer's
-- (client ⊃ proxy, client ⊃ server), θ ≥ inner.first − outer.first.
-- low_ms/high_ms are the tightest bounds after dropping the most extreme
-- 1% on each side (at least one from 20 requests), as analyze trims;
-- offset_ms is their middle when they do not cross (consistent). Each
-- request's bounds are widened by 1 ms per observer whose start and end are
-- whole milliseconds (nginx, Envoy, HAProxy truncate to the ms). analyze
-- widens by each format's known error and also uses its time-window joins,
-- so its offsets lie within these bounds, not at their middle.
{{create "clock_bounds" .Materialize}}
WITH j AS (
  SELECT
    j.outer_source, o.host AS outer_host, i.host AS inner_host,
    o.start_ns AS o_start, o.first_token_ns AS o_first, o.end_ns AS o_end,
    i.start_ns AS i_start, i.first_token_ns AS i_first, i.end_ns AS i_end,
    CASE WHEN o.start_ns % 1000000 = 0 AND o.end_ns % 1000000 = 0 THEN 1000000 ELSE 0 END
      + CASE WHEN i.start_ns % 1000000 = 0 AND i.end_ns % 1000000 = 0 THEN 1000000 ELSE 0 END AS widen_ns
  FROM id_joins j
  JOIN join_events o ON o.source = j.outer_source AND o.event_id = j.outer_event
  JOIN join_events i ON i.source = j.inner_source AND i.event_id = j.inner_event
  WHERE o.start_ns IS NOT NULL AND o.end_ns IS NOT NULL AND i.start_ns IS NOT NULL AND i.end_ns IS NOT NULL
),
b AS (
  SELECT
    outer_host, inner_host,
    CASE
      WHEN outer_source = 'client' AND i_first IS NOT NULL AND o_first IS NOT NULL
        AND i_first - o_first > i_end - o_end
        THEN i_first - o_first
      ELSE i_end - o_end
    END - widen_ns AS lower_ns,
    i_start - o_start + widen_ns AS upper_ns
  FROM j
),
r AS (
  SELECT b.*,
    row_number() OVER (PARTITION BY outer_host, inner_host ORDER BY lower_ns DESC) AS lower_rank,
    row_number() OVER (PARTITION BY outer_host, inner_host ORDER BY upper_ns) AS upper_rank,
    count(*) OVER (PARTITION BY outer_host, inner_host) AS n
  FROM b
),
k AS (
  SELECT r.*,
    CASE WHEN n >= 20 AND n < 100 THEN 1 ELSE CAST(floor(n / 100.0) AS BIGINT) END AS trimmed
  FROM r
),
t AS (
  SELECT outer_host, inner_host, max(n) AS requests,
    max(CASE WHEN lower_rank = trimmed + 1 THEN lower_ns END) AS low_ns,
    max(CASE WHEN upper_rank = trimmed + 1 THEN upper_ns END) AS high_ns
  FROM k
  GROUP BY outer_host, inner_host
)
SELECT outer_host, inner_host, requests,
  CAST(low_ns AS DOUBLE) / 1e6 AS low_ms, CAST(high_ns AS DOUBLE) / 1e6 AS high_ms,
  low_ns <= high_ns AS consistent,
  CASE WHEN low_ns <= high_ns THEN (CAST(low_ns AS DOUBLE) + CAST(high_ns - low_ns AS DOUBLE) / 2) / 1e6 END AS offset_ms
FROM t;

-- ttft_breakdown_requests: the TTFT breakdown (SPEC §4) of every request
-- joined by id from client through proxy to server, ms, with the proxy's
-- and server's instants moved to the client's clock by the offsets of
-- clock_bounds: client→proxy, proxy→server, the server's queue and prefill
-- (0 when not logged) and the rest of its TTFT, and the return path from
-- the server's first token to the client's. They add up to the client's
-- TTFT. succeeded: neither client nor server logged an error class.
CREATE OR REPLACE VIEW ttft_breakdown_requests AS
SELECT
  c.host AS client_host, p.host AS proxy_host, s.host AS server_host,
  c.event_id AS client_event, p.event_id AS proxy_event, s.event_id AS server_event,
  (c.error_class IS NULL OR c.error_class = '') AND (s.error_class IS NULL OR s.error_class = '') AS succeeded,
  (CAST(p.start_ns - c.start_ns AS DOUBLE) / 1e6 - bcp.offset_ms) AS client_to_proxy_ms,
  (CAST(s.start_ns - p.start_ns AS DOUBLE) / 1e6 - bps.offset_ms) AS proxy_to_server_ms,
  CAST(coalesce(s.queue_ns, 0) AS DOUBLE) / 1e6 AS server_queue_ms,
  CAST(coalesce(s.prefill_ns, 0) AS DOUBLE) / 1e6 AS server_prefill_ms,
  CAST(s.first_token_ns - s.start_ns - coalesce(s.queue_ns, 0) - coalesce(s.prefill_ns, 0) AS DOUBLE) / 1e6 AS server_other_ms,
  (CAST(c.first_token_ns - s.first_token_ns AS DOUBLE) / 1e6 + bps.offset_ms + bcp.offset_ms) AS return_path_ms,
  CAST(c.first_token_ns - c.start_ns AS DOUBLE) / 1e6 AS client_ttft_ms,
  CAST(s.first_token_ns - s.start_ns AS DOUBLE) / 1e6 AS server_ttft_ms
FROM id_joins cp
JOIN id_joins ps ON cp.outer_source = 'client' AND cp.inner_source = 'proxy'
  AND ps.outer_source = 'proxy' AND ps.inner_source = 'server' AND ps.outer_event = cp.inner_event
JOIN join_events c ON c.source = 'client' AND c.event_id = cp.outer_event
JOIN join_events p ON p.source = 'proxy' AND p.event_id = cp.inner_event
JOIN join_events s ON s.source = 'server' AND s.event_id = ps.inner_event
JOIN clock_bounds bcp ON bcp.outer_host = c.host AND bcp.inner_host = p.host
JOIN clock_bounds bps ON bps.outer_host = p.host AND bps.inner_host = s.host
WHERE c.start_ns IS NOT NULL AND c.first_token_ns IS NOT NULL AND p.start_ns IS NOT NULL
  AND s.start_ns IS NOT NULL AND s.first_token_ns IS NOT NULL;

-- ttft_breakdown: the mean breakdown over the succeeded id-joined
-- requests, ms, per band of client TTFT as analyze's bands (over these
-- requests only): with the n requests sorted by client TTFT (then client
-- event), band all takes every one, p50, p90 and p99 the ranks (from 0)
-- ⌊lo·(n−1)⌋ … ⌈hi·(n−1)⌉ for lo–hi 0.45–0.55, 0.85–0.95 and 0.985–0.995.
-- The band ranks sort these requests in one partition: they are the
-- fraction of a fleet's requests seen by all three observers and joined by id.
CREATE OR REPLACE VIEW ttft_breakdown AS
WITH r AS (
  SELECT *,
    row_number() OVER (ORDER BY client_ttft_ms, client_event) - 1 AS k,
    count(*) OVER () AS n
  FROM ttft_breakdown_requests
  WHERE succeeded AND client_to_proxy_ms IS NOT NULL AND return_path_ms IS NOT NULL
),
bands AS (
  SELECT 1 AS band_order, 'all' AS band, 0.0E0 AS lo, 1.0E0 AS hi
  UNION ALL SELECT 2, 'p50', 0.45E0, 0.55E0
  UNION ALL SELECT 3, 'p90', 0.85E0, 0.95E0
  UNION ALL SELECT 4, 'p99', 0.985E0, 0.995E0
)
SELECT
  b.band_order, b.band, count(*) AS requests,
  avg(client_to_proxy_ms) AS client_to_proxy_ms, avg(proxy_to_server_ms) AS proxy_to_server_ms,
  avg(server_queue_ms) AS server_queue_ms, avg(server_prefill_ms) AS server_prefill_ms,
  avg(server_other_ms) AS server_other_ms, avg(return_path_ms) AS return_path_ms,
  avg(client_ttft_ms) AS client_ttft_ms
FROM r
JOIN bands b ON r.k BETWEEN floor(b.lo * CAST(r.n - 1 AS DOUBLE)) AND ceil(b.hi * CAST(r.n - 1 AS DOUBLE))
GROUP BY b.band_order, b.band;
{{- end}}

{{define "exact_summary" -}}
-- Percentiles are exact type 7 (linear interpolation between closest
-- ranks, numpy's default), from a sort per group.
CREATE OR REPLACE VIEW metric_summary AS
{{template "weighted" (weighted "source, group_key, group_values, metric_order, metric, unit" "metric_samples WHERE success")}};
{{- end}}

{{define "exact_series" -}}
SELECT source, window_ns, metric, count, p50, p99 FROM (
{{template "weighted" (weighted "source, window_ns, metric" "metric_samples WHERE success AND group_key = '' AND window_ns IS NOT NULL AND metric IN ('ttft', 'itl')")}}
) w;
{{- end}}

{{define "throughput" -}}
-- throughput: per source, over its whole span (first_ns: the earliest
-- start, last_ns: the latest start or end of its wall-clock requests with
-- a start): those requests, the succeeded ones, their output tokens (and
-- Σ tokens², for the rates' standard errors), request_rate (requests/s)
-- and output_tps (tokens/s). analyze's throughput without goodput.
CREATE OR REPLACE VIEW throughput AS
SELECT
  source, first_ns, last_ns, seconds, requests, succeeded, output_tokens, output_tokens_sq,
  CAST(requests AS DOUBLE) / seconds AS request_rate,
  output_tokens / seconds AS output_tps
FROM (
  SELECT
    source, first_ns, last_ns, CAST(last_ns - first_ns AS DOUBLE) / 1e9 AS seconds,
    requests, succeeded, output_tokens, output_tokens_sq
  FROM (
    SELECT
      source, min(start_ns) AS first_ns,
      max(greatest(start_ns, coalesce(end_ns, start_ns))) AS last_ns,
      count(*) AS requests,
      sum(CASE WHEN success THEN 1 ELSE 0 END) AS succeeded,
      sum(CAST(tokens AS DOUBLE)) AS output_tokens,
      sum(CAST(tokens AS DOUBLE) * CAST(tokens AS DOUBLE)) AS output_tokens_sq
    FROM request_instants
    WHERE group_key = '' AND window_ns IS NOT NULL
    GROUP BY source
  ) t
  WHERE last_ns > first_ns
) s;

-- timeseries_throughput: per source and window of {{.Window}} with tokens
-- or requests in flight: output_tokens arrived (token_windows) and
-- output_tps = output_tokens / the width in s (analyze's output_tps
-- series); concurrency, the mean number of requests in flight (their
-- overlap with the window / its width), and in_flight, the requests in
-- flight at some time in it (analyze's concurrency series, value and
-- count). The windows are analyze's: from the earliest wall-clock start
-- to the latest start or end of any source; later tokens are not counted.
CREATE OR REPLACE VIEW timeseries_throughput AS
WITH grid AS (
  SELECT max(greatest(start_ns, coalesce(end_ns, start_ns))) AS hi_ns
  FROM ttft_events
  WHERE clock = 'wall' AND start_ns IS NOT NULL
),
t AS (
  SELECT source, window_ns, sum(tokens) AS output_tokens
  FROM token_windows
  GROUP BY source, window_ns
),
b AS (
  SELECT source, window_ns, sum(busy_ns) AS busy_ns, count(*) AS in_flight
  FROM busy_windows
  WHERE busy_ns > 0 OR instant
  GROUP BY source, window_ns
),
w AS (
  SELECT coalesce(t.source, b.source) AS source, coalesce(t.window_ns, b.window_ns) AS window_ns,
    coalesce(t.output_tokens, 0E0) AS output_tokens,
    coalesce(b.busy_ns, 0) AS busy_ns, coalesce(b.in_flight, 0) AS in_flight
  FROM t
  FULL OUTER JOIN b ON b.source = t.source AND b.window_ns = t.window_ns
)
SELECT
  w.source, w.window_ns, w.output_tokens,
  w.output_tokens / {{.WindowSeconds}} AS output_tps,
  CAST(w.busy_ns AS DOUBLE) / {{.WindowNs}}E0 AS concurrency,
  w.in_flight
FROM w
CROSS JOIN grid
WHERE w.window_ns <= grid.hi_ns - ((grid.hi_ns % {{.WindowNs}}) + {{.WindowNs}}) % {{.WindowNs}};
{{- end}}

{{define "token_windows_head" -}}
-- token_windows: one row per chunk of a wall-clock request with a start:
-- the window its tokens arrived in (start + chunk offset) and how many:
-- the chunk's chunk_tokens when every chunk has one, else output_tokens
-- spread evenly over the chunks, else 1; a request without chunks brings
-- all its tokens at its end.
CREATE OR REPLACE VIEW token_windows AS
SELECT source, at_ns - (((at_ns) % {{.WindowNs}}) + {{.WindowNs}}) % {{.WindowNs}} AS window_ns, tokens
FROM (
{{- end}}

{{define "token_windows_tail"}}
  UNION ALL
  SELECT source, end_ns, CAST(tokens AS DOUBLE)
  FROM request_instants
  WHERE group_key = '' AND window_ns IS NOT NULL AND chunks = 0 AND end_ns IS NOT NULL
) a;
{{- end}}

{{define "busy_windows_head" -}}
-- busy_windows: one row per wall-clock request and window it is in flight
-- in, from its start to its end (else its last token): busy_ns, the time
-- it overlaps the window; instant: it starts and ends at once.
CREATE OR REPLACE VIEW busy_windows AS
WITH spans AS (
  SELECT source, start_ns, coalesce(end_ns, last_ns) AS stop_ns, window_ns
  FROM request_instants
  WHERE group_key = '' AND window_ns IS NOT NULL AND coalesce(end_ns, last_ns) >= start_ns
)
{{- end}}
