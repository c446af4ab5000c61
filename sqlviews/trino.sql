{{template "events" .}}

-- request_instants: the instants and output token count the metrics use.
-- first_ns falls back to start + the first chunk offset, last_ns to start +
-- the last chunk offset; tokens is output_tokens, else the sum of
-- chunk_tokens, else the number of chunks (0 = unknown); chunks counts the
-- chunk offsets. element_at gives
-- NULL past the end of an array, and counts from the end for -1. window_ns
-- is the start of the time-series window the request started in.
CREATE OR REPLACE VIEW request_instants AS
SELECT
  source, host, model, endpoint, success, group_key, group_values, input_file, input_line,
  status, error_class, completed,
  start_ns, headers_ns, end_ns, queue_ns, prefill_ns, decode_ns,
  coalesce(first_token_ns, start_ns + element_at(chunk_offsets_ns, 1)) AS first_ns,
  coalesce(last_token_ns, start_ns + element_at(chunk_offsets_ns, -1)) AS last_ns,
  CASE
    WHEN output_tokens IS NOT NULL THEN greatest(output_tokens, 0)
    WHEN cardinality(chunk_tokens) > 0
      THEN reduce(chunk_tokens, BIGINT '0', (s, k) -> s + greatest(k, 0), s -> s)
    ELSE CAST(cardinality(chunk_offsets_ns) AS BIGINT)
  END AS tokens,
  CAST(cardinality(chunk_offsets_ns) AS BIGINT) AS chunks,
  {{template "window" .}}
FROM grouped_events;

{{template "metrics" .}}

-- chunk_gaps: one row per chunk after the first: the gap to the chunk before
-- in ms, and the tokens the later chunk carried (chunk_tokens when it lists
-- every chunk and the count is positive, capped at 65536; else 1).
CREATE OR REPLACE VIEW chunk_gaps AS
SELECT
  e.source, e.host, e.model, e.endpoint, e.success, e.group_key, e.group_values,
  {{template "window" .}},
  e.input_file, e.input_line, c.chunk,
  CAST(c.offset_ns - element_at(e.chunk_offsets_ns, c.chunk - 1) AS DOUBLE) / 1e6 AS gap_ms,
  CAST(CASE
    WHEN cardinality(e.chunk_tokens) = cardinality(e.chunk_offsets_ns)
      AND element_at(e.chunk_tokens, c.chunk) > 0
      THEN least(element_at(e.chunk_tokens, c.chunk), 65536)
    ELSE 1
  END AS BIGINT) AS tokens
FROM grouped_events e
CROSS JOIN UNNEST(e.chunk_offsets_ns) WITH ORDINALITY AS c (offset_ns, chunk)
WHERE c.chunk > 1;

-- itl_samples: pooled per-token gaps: a gap g whose later chunk carried k
-- tokens gives k samples of g/k ms, one row with tokens = k (a weight, not
-- k rows: sequence() refuses more than 10,000 elements, and a chunk may
-- carry more tokens).
CREATE OR REPLACE VIEW itl_samples AS
SELECT
  source, host, model, endpoint, success, group_key, group_values, window_ns, input_file, input_line, chunk,
  gap_ms / CAST(tokens AS DOUBLE) AS itl_ms, tokens
FROM chunk_gaps;

{{template "samples" .}}

-- metric_summary: per source, group and metric over successful requests:
-- count, mean, population standard deviation, min, percentiles and max.
{{- if .Approx}}
-- Percentiles are approx_percentile(value, weight, p) (a t-digest:
-- mergeable; rank error typically well under 1%, not bounded).
CREATE OR REPLACE VIEW metric_summary AS
SELECT
  source, group_key, group_values, metric_order, metric, unit, count,
  mean, sqrt(greatest(sq / CAST(count AS DOUBLE) - mean * mean, 0)) AS std, min,
  p[1] AS p50, p[2] AS p90, p[3] AS p95, p[4] AS p99, p[5] AS p999,
  max
FROM (
  SELECT
    source, group_key, group_values, metric_order, metric, unit,
    sum(weight) AS count,
    sum(weight * value) / CAST(sum(weight) AS DOUBLE) AS mean,
    sum(weight * value * value) AS sq,
    min(value) AS min,
    approx_percentile(value, weight, ARRAY[0.5, 0.9, 0.95, 0.99, 0.999]) AS p,
    max(value) AS max
  FROM metric_samples
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
  source, window_ns, metric, sum(weight) AS count,
  approx_percentile(value, weight, 0.5) AS p50,
  approx_percentile(value, weight, 0.99) AS p99
FROM metric_samples
WHERE success AND group_key = '' AND window_ns IS NOT NULL AND metric IN ('ttft', 'itl')
GROUP BY source, window_ns, metric;
{{- else}}
{{template "exact_series" .}}
{{- end}}

{{template "series" .}}

{{template "token_windows_head" .}}
  SELECT e.source, e.start_ns + c.offset_ns AS at_ns,
    CASE
      WHEN cardinality(e.chunk_tokens) = cardinality(e.chunk_offsets_ns)
        THEN CAST(greatest(element_at(e.chunk_tokens, c.chunk), 0) AS DOUBLE)
      WHEN e.output_tokens IS NOT NULL
        THEN CAST(greatest(e.output_tokens, 0) AS DOUBLE) / CAST(cardinality(e.chunk_offsets_ns) AS DOUBLE)
      ELSE 1.0E0
    END AS tokens
  FROM ttft_events e
  CROSS JOIN UNNEST(e.chunk_offsets_ns) WITH ORDINALITY AS c (offset_ns, chunk)
  WHERE clock = 'wall' AND start_ns IS NOT NULL{{template "token_windows_tail" .}}

{{template "busy_windows_head" .}}
SELECT s.source, s.window_ns + b.lo * {{.WindowNs}} AS window_ns,
  least(s.stop_ns, s.window_ns + b.lo * {{.WindowNs}} + {{.WindowNs}}) - greatest(s.start_ns, s.window_ns + b.lo * {{.WindowNs}}) AS busy_ns,
  s.start_ns = s.stop_ns AS instant
-- sequence() refuses more than 10,000 elements: the windows are numbered
-- in blocks of 10,000 (hi) and within a block (lo).
FROM spans s
CROSS JOIN UNNEST(sequence(0, (s.stop_ns - (((s.stop_ns) % {{.WindowNs}}) + {{.WindowNs}}) % {{.WindowNs}} - s.window_ns) / {{.WindowNs}} / 10000)) AS a (hi)
CROSS JOIN UNNEST(sequence(a.hi * 10000,
  least(a.hi * 10000 + 9999, (s.stop_ns - (((s.stop_ns) % {{.WindowNs}}) + {{.WindowNs}}) % {{.WindowNs}} - s.window_ns) / {{.WindowNs}}))) AS b (lo);

{{template "throughput" .}}

{{template "joins" .}}
