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
