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

-- request_instants: the instants and output token count the metrics use.
-- first_ns falls back to start + the first chunk offset, last_ns to start +
-- the last chunk offset; tokens is output_tokens, else the sum of
-- chunk_tokens, else the number of chunks (0 = unknown). element_at gives
-- NULL past the end of an array, and counts from the end for -1.
CREATE OR REPLACE VIEW request_instants AS
SELECT
  source, host, model, endpoint, success, input_file, input_line,
  status, error_class, completed,
  start_ns, headers_ns, end_ns, queue_ns, prefill_ns, decode_ns,
  coalesce(first_token_ns, start_ns + element_at(chunk_offsets_ns, 1)) AS first_ns,
  coalesce(last_token_ns, start_ns + element_at(chunk_offsets_ns, -1)) AS last_ns,
  CASE
    WHEN output_tokens IS NOT NULL THEN greatest(output_tokens, 0)
    WHEN cardinality(chunk_tokens) > 0
      THEN reduce(chunk_tokens, BIGINT '0', (s, k) -> s + greatest(k, 0), s -> s)
    ELSE CAST(cardinality(chunk_offsets_ns) AS BIGINT)
  END AS tokens
FROM ttft_events;

-- request_metrics: one row per event, latencies in ms (NULL when an instant
-- is not logged), tps_user in tokens/s; failure_class is NULL for a success.
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
  source, host, model, endpoint, success, input_file, input_line,
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

-- chunk_gaps: one row per chunk after the first: the gap to the chunk before
-- in ms, and the tokens the later chunk carried (chunk_tokens when it lists
-- every chunk and the count is positive, capped at 65536; else 1).
CREATE OR REPLACE VIEW chunk_gaps AS
SELECT
  e.source, e.host, e.model, e.endpoint, e.success, e.input_file, e.input_line,
  c.chunk,
  CAST(c.offset_ns - element_at(e.chunk_offsets_ns, c.chunk - 1) AS DOUBLE) / 1e6 AS gap_ms,
  CASE
    WHEN cardinality(e.chunk_tokens) = cardinality(e.chunk_offsets_ns)
      AND element_at(e.chunk_tokens, c.chunk) > 0
      THEN least(element_at(e.chunk_tokens, c.chunk), 65536)
    ELSE 1
  END AS tokens
FROM ttft_events e
CROSS JOIN UNNEST(e.chunk_offsets_ns) WITH ORDINALITY AS c (offset_ns, chunk)
WHERE c.chunk > 1;

-- itl_samples: pooled per-token gaps: a gap g whose later chunk carried k
-- tokens gives k samples of g/k ms.
CREATE OR REPLACE VIEW itl_samples AS
SELECT
  g.source, g.host, g.model, g.endpoint, g.success, g.input_file, g.input_line, g.chunk,
  g.gap_ms / CAST(g.tokens AS DOUBLE) AS itl_ms
FROM chunk_gaps g
CROSS JOIN UNNEST(sequence(1, g.tokens)) AS t (token);

{{template "samples" .}}

{{template "percentiles" .}}

-- metric_summary: per source and metric over successful requests: count,
-- mean, population standard deviation, min, percentiles and max. Trino has
-- no exact quantile_cont (approx_percentile is a sketch, not type 7), so the
-- percentiles come from metric_percentiles: exact type 7, as analyze gives
-- them, at the cost of sorting every metric's samples. For a cheaper
-- approximation, compute approx_percentile(value, ARRAY[0.5, 0.9, 0.95,
-- 0.99, 0.999]) in the inner query instead of joining metric_percentiles.
CREATE OR REPLACE VIEW metric_summary AS
SELECT
  s.source, s.metric_order, s.metric, s.unit, s.count, s.mean, s.std, s.min,
  max(CASE WHEN p.percentile = 'p50' THEN p.value END) AS p50,
  max(CASE WHEN p.percentile = 'p90' THEN p.value END) AS p90,
  max(CASE WHEN p.percentile = 'p95' THEN p.value END) AS p95,
  max(CASE WHEN p.percentile = 'p99' THEN p.value END) AS p99,
  max(CASE WHEN p.percentile = 'p999' THEN p.value END) AS p999,
  s.max
FROM (
  SELECT
    source, metric_order, metric, unit,
    count(*) AS count,
    avg(value) AS mean,
    stddev_pop(value) AS std,
    min(value) AS min,
    max(value) AS max
  FROM metric_samples
  WHERE success
  GROUP BY source, metric_order, metric, unit
) s
JOIN metric_percentiles p
  ON p.source = s.source AND p.metric_order = s.metric_order
GROUP BY s.source, s.metric_order, s.metric, s.unit, s.count, s.mean, s.std, s.min, s.max;

{{template "errors" .}}
