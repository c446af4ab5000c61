{{template "events" .}}

-- request_instants: the instants and output token count the metrics use.
-- first_ns falls back to start + the first chunk offset, last_ns to start +
-- the last chunk offset; tokens is output_tokens, else the sum of
-- chunk_tokens, else the number of chunks (0 = unknown); chunks counts the
-- chunk offsets. window_ns is the
-- start of the time-series window the request started in.
CREATE OR REPLACE VIEW request_instants AS
SELECT
  source, host, model, endpoint, success, group_key, group_values, input_file, input_line,
  status, error_class, completed,
  start_ns, headers_ns, end_ns, queue_ns, prefill_ns, decode_ns,
  coalesce(first_token_ns, start_ns + chunk_offsets_ns[1]) AS first_ns,
  coalesce(last_token_ns, start_ns + chunk_offsets_ns[-1]) AS last_ns,
  CASE
    WHEN output_tokens IS NOT NULL THEN greatest(output_tokens, 0)
    WHEN len(chunk_tokens) > 0
      THEN CAST(list_sum(list_transform(chunk_tokens, lambda k: CAST(greatest(k, 0) AS BIGINT))) AS BIGINT)
    ELSE CAST(len(chunk_offsets_ns) AS BIGINT)
  END AS tokens,
  CAST(len(chunk_offsets_ns) AS BIGINT) AS chunks,
  {{template "window" .}}
FROM grouped_events;

{{template "metrics" .}}

-- chunk_gaps: one row per chunk after the first: the gap to the chunk before
-- in ms, and the tokens the later chunk carried (chunk_tokens when it lists
-- every chunk and the count is positive, capped at 65536; else 1).
CREATE OR REPLACE VIEW chunk_gaps AS
WITH c AS (
  SELECT
    source, host, model, endpoint, success, group_key, group_values, input_file, input_line,
    {{template "window" .}},
    chunk_offsets_ns, chunk_tokens,
    unnest(generate_series(2, len(chunk_offsets_ns))) AS chunk
  FROM grouped_events
)
SELECT
  source, host, model, endpoint, success, group_key, group_values, window_ns, input_file, input_line, chunk,
  CAST(chunk_offsets_ns[chunk] - chunk_offsets_ns[chunk - 1] AS DOUBLE) / 1e6 AS gap_ms,
  CAST(CASE
    WHEN len(chunk_tokens) = len(chunk_offsets_ns) AND chunk_tokens[chunk] > 0
      THEN least(chunk_tokens[chunk], 65536)
    ELSE 1
  END AS BIGINT) AS tokens
FROM c;

-- itl_samples: pooled per-token gaps: a gap g whose later chunk carried k
-- tokens gives k samples of g/k ms, one row with tokens = k.
CREATE OR REPLACE VIEW itl_samples AS
SELECT
  source, host, model, endpoint, success, group_key, group_values, window_ns, input_file, input_line, chunk,
  gap_ms / CAST(tokens AS DOUBLE) AS itl_ms, tokens
FROM chunk_gaps;

{{template "samples" .}}

-- metric_summary: per source, group and metric over successful requests:
-- count, mean, population standard deviation, min, percentiles and max.
{{- if .Approx}}
-- Percentiles are approx_quantile (a t-digest: mergeable, one pass; its
-- rank error is typically well under 1%, not bounded).
{{- else}}
-- Percentiles are exact type 7 (quantile_cont: linear interpolation between
-- closest ranks, numpy's default).
{{- end}}
CREATE OR REPLACE VIEW metric_summary AS
SELECT
  source, group_key, group_values, metric_order, metric, unit, count, mean, std, min,
  p[1] AS p50, p[2] AS p90, p[3] AS p95, p[4] AS p99, p[5] AS p999,
  max
FROM (
  SELECT
    source, group_key, group_values, metric_order, metric, unit,
    count(*) AS count,
    avg(value) AS mean,
    stddev_pop(value) AS std,
    min(value) AS min,
    {{if .Approx}}approx_quantile{{else}}quantile_cont{{end}}(value, [0.5, 0.9, 0.95, 0.99, 0.999]) AS p,
    max(value) AS max
  FROM (SELECT *, unnest(range(weight)) FROM metric_samples WHERE success)
  GROUP BY source, group_key, group_values, metric_order, metric, unit
);

{{template "errors" .}}

-- timeseries_latency: per source and window, the TTFT and ITL samples of
-- the successful requests started in it: count, p50 and p99.
CREATE OR REPLACE VIEW timeseries_latency AS
SELECT
  source, window_ns, metric, count(*) AS count,
  {{if .Approx}}approx_quantile{{else}}quantile_cont{{end}}(value, 0.5) AS p50,
  {{if .Approx}}approx_quantile{{else}}quantile_cont{{end}}(value, 0.99) AS p99
FROM (SELECT *, unnest(range(weight)) FROM metric_samples
  WHERE success AND group_key = '' AND window_ns IS NOT NULL AND metric IN ('ttft', 'itl'))
GROUP BY source, window_ns, metric;

{{template "series" .}}

{{template "token_windows_head" .}}
  SELECT source, start_ns + chunk_offsets_ns[chunk] AS at_ns,
    CASE
      WHEN len(chunk_tokens) = len(chunk_offsets_ns)
        THEN CAST(greatest(chunk_tokens[chunk], 0) AS DOUBLE)
      WHEN output_tokens IS NOT NULL
        THEN CAST(greatest(output_tokens, 0) AS DOUBLE) / CAST(len(chunk_offsets_ns) AS DOUBLE)
      ELSE 1.0E0
    END AS tokens
  FROM (
    SELECT *, unnest(generate_series(1, len(chunk_offsets_ns))) AS chunk
    FROM ttft_events
    WHERE clock = 'wall' AND start_ns IS NOT NULL
  ) e{{template "token_windows_tail" .}}

{{template "busy_windows_head" .}}
SELECT source, window_ns,
  least(stop_ns, window_ns + {{.WindowNs}}) - greatest(start_ns, window_ns) AS busy_ns,
  start_ns = stop_ns AS instant
FROM (
  SELECT source, start_ns, stop_ns,
    unnest(generate_series(window_ns, stop_ns - (((stop_ns) % {{.WindowNs}}) + {{.WindowNs}}) % {{.WindowNs}}, CAST({{.WindowNs}} AS BIGINT))) AS window_ns
  FROM spans
) w;

{{template "throughput" .}}

{{template "joins" .}}
