{{template "events" .}}

-- request_instants: the instants and output token count the metrics use.
-- first_ns falls back to start + the first chunk offset, last_ns to start +
-- the last chunk offset; tokens is output_tokens, else the sum of
-- chunk_tokens, else the number of chunks (0 = unknown); chunks counts the
-- chunk offsets. try_element_at
-- gives NULL past the end of an array (also under ANSI mode), and counts
-- from the end for -1. window_ns is the start of the time-series window the
-- request started in.
CREATE OR REPLACE VIEW request_instants AS
SELECT
  source, host, model, endpoint, success, group_key, group_values, input_file, input_line,
  status, error_class, completed,
  start_ns, headers_ns, end_ns, queue_ns, prefill_ns, decode_ns,
  coalesce(first_token_ns, start_ns + try_element_at(chunk_offsets_ns, 1)) AS first_ns,
  coalesce(last_token_ns, start_ns + try_element_at(chunk_offsets_ns, -1)) AS last_ns,
  CASE
    WHEN output_tokens IS NOT NULL THEN greatest(output_tokens, 0)
    WHEN size(chunk_tokens) > 0
      THEN aggregate(chunk_tokens, CAST(0 AS BIGINT), (s, k) -> s + greatest(k, 0))
    ELSE CAST(size(chunk_offsets_ns) AS BIGINT)
  END AS tokens,
  CAST(size(chunk_offsets_ns) AS BIGINT) AS chunks,
  {{template "window" .}}
FROM grouped_events;

{{template "metrics" .}}

-- chunk_gaps: one row per chunk after the first: the gap to the chunk before
-- in ms, and the tokens the later chunk carried (chunk_tokens when it lists
-- every chunk and the count is positive, capped at 65536; else 1).
-- posexplode numbers the chunks from 0; chunk is 1-based like the other
-- dialects.
CREATE OR REPLACE VIEW chunk_gaps AS
SELECT
  source, host, model, endpoint, success, group_key, group_values,
  {{template "window" .}},
  input_file, input_line,
  pos + 1 AS chunk,
  CAST(offset_ns - try_element_at(chunk_offsets_ns, pos) AS DOUBLE) / 1e6 AS gap_ms,
  CAST(CASE
    WHEN size(chunk_tokens) = size(chunk_offsets_ns)
      AND try_element_at(chunk_tokens, pos + 1) > 0
      THEN least(try_element_at(chunk_tokens, pos + 1), 65536)
    ELSE 1
  END AS BIGINT) AS tokens
FROM grouped_events
LATERAL VIEW posexplode(chunk_offsets_ns) c AS pos, offset_ns
WHERE pos > 0;

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
-- Percentiles are percentile_approx(value, p, 10000) (Greenwald-Khanna:
-- mergeable; rank error at most 1/10000 of the samples).
CREATE OR REPLACE VIEW metric_summary AS
SELECT
  source, group_key, group_values, metric_order, metric, unit, count, mean, std, min,
  p[0] AS p50, p[1] AS p90, p[2] AS p95, p[3] AS p99, p[4] AS p999,
  max
FROM (
  SELECT
    source, group_key, group_values, metric_order, metric, unit,
    count(*) AS count,
    avg(value) AS mean,
    stddev_pop(value) AS std,
    min(value) AS min,
    percentile_approx(value, array(0.5, 0.9, 0.95, 0.99, 0.999), 10000) AS p,
    max(value) AS max
  FROM metric_samples
  LATERAL VIEW explode(sequence(1, weight)) t AS sample
  WHERE success
  GROUP BY source, group_key, group_values, metric_order, metric, unit
) s;
{{- else}}
{{template "exact_summary" .}}
{{- end}}

{{template "errors" .}}

-- timeseries_latency: per source and window, the TTFT and ITL samples of
-- the successful requests started in it: count, p50 and p99.
CREATE OR REPLACE VIEW timeseries_latency AS
{{- if .Approx}}
SELECT
  source, window_ns, metric, count(*) AS count,
  percentile_approx(value, 0.5, 10000) AS p50,
  percentile_approx(value, 0.99, 10000) AS p99
FROM metric_samples
LATERAL VIEW explode(sequence(1, weight)) t AS sample
WHERE success AND group_key = '' AND window_ns IS NOT NULL AND metric IN ('ttft', 'itl')
GROUP BY source, window_ns, metric;
{{- else}}
{{template "exact_series" .}}
{{- end}}

{{template "series" .}}

{{template "token_windows_head" .}}
  SELECT source, start_ns + offset_ns AS at_ns,
    CASE
      WHEN size(chunk_tokens) = size(chunk_offsets_ns)
        THEN CAST(greatest(try_element_at(chunk_tokens, pos + 1), 0) AS DOUBLE)
      WHEN output_tokens IS NOT NULL
        THEN CAST(greatest(output_tokens, 0) AS DOUBLE) / CAST(size(chunk_offsets_ns) AS DOUBLE)
      ELSE 1.0E0
    END AS tokens
  FROM ttft_events
  LATERAL VIEW posexplode(chunk_offsets_ns) c AS pos, offset_ns
  WHERE clock = 'wall' AND start_ns IS NOT NULL{{template "token_windows_tail" .}}

{{template "busy_windows_head" .}}
SELECT source, w.win AS window_ns,
  least(stop_ns, w.win + {{.WindowNs}}) - greatest(start_ns, w.win) AS busy_ns,
  start_ns = stop_ns AS instant
FROM spans
LATERAL VIEW explode(sequence(window_ns, stop_ns - (((stop_ns) % {{.WindowNs}}) + {{.WindowNs}}) % {{.WindowNs}}, CAST({{.WindowNs}} AS BIGINT))) w AS win;

{{template "throughput" .}}

{{template "joins" .}}
