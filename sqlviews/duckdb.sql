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
-- chunk_tokens, else the number of chunks (0 = unknown).
CREATE OR REPLACE VIEW request_instants AS
SELECT
  source, host, model, endpoint, success, input_file, input_line,
  status, error_class, completed,
  start_ns, headers_ns, end_ns, queue_ns, prefill_ns, decode_ns,
  coalesce(first_token_ns, start_ns + chunk_offsets_ns[1]) AS first_ns,
  coalesce(last_token_ns, start_ns + chunk_offsets_ns[-1]) AS last_ns,
  CASE
    WHEN output_tokens IS NOT NULL THEN greatest(output_tokens, 0)
    WHEN len(chunk_tokens) > 0
      THEN CAST(list_sum(list_transform(chunk_tokens, lambda k: CAST(greatest(k, 0) AS BIGINT))) AS BIGINT)
    ELSE CAST(len(chunk_offsets_ns) AS BIGINT)
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
WITH c AS (
  SELECT
    source, host, model, endpoint, success, input_file, input_line,
    chunk_offsets_ns, chunk_tokens,
    unnest(generate_series(2, len(chunk_offsets_ns))) AS chunk
  FROM ttft_events
)
SELECT
  source, host, model, endpoint, success, input_file, input_line, chunk,
  CAST(chunk_offsets_ns[chunk] - chunk_offsets_ns[chunk - 1] AS DOUBLE) / 1e6 AS gap_ms,
  CASE
    WHEN len(chunk_tokens) = len(chunk_offsets_ns) AND chunk_tokens[chunk] > 0
      THEN least(chunk_tokens[chunk], 65536)
    ELSE 1
  END AS tokens
FROM c;

-- itl_samples: pooled per-token gaps: a gap g whose later chunk carried k
-- tokens gives k samples of g/k ms.
CREATE OR REPLACE VIEW itl_samples AS
SELECT
  source, host, model, endpoint, success, input_file, input_line, chunk,
  gap_ms / CAST(tokens AS DOUBLE) AS itl_ms
FROM (SELECT *, unnest(range(tokens)) AS token FROM chunk_gaps);

{{template "samples" .}}

{{template "percentiles" .}}

-- metric_summary: per source and metric over successful requests: count,
-- mean, population standard deviation, min, type 7 percentiles (linear
-- interpolation between closest ranks, numpy's default: quantile_cont) and max.
CREATE OR REPLACE VIEW metric_summary AS
SELECT
  source, metric_order, metric, unit, count, mean, std, min,
  p[1] AS p50, p[2] AS p90, p[3] AS p95, p[4] AS p99, p[5] AS p999,
  max
FROM (
  SELECT
    source, metric_order, metric, unit,
    count(*) AS count,
    avg(value) AS mean,
    stddev_pop(value) AS std,
    min(value) AS min,
    quantile_cont(value, [0.5, 0.9, 0.95, 0.99, 0.999]) AS p,
    max(value) AS max
  FROM metric_samples
  WHERE success
  GROUP BY source, metric_order, metric, unit
);

{{template "errors" .}}
