{{define "samples" -}}
-- metric_samples: every sample of every metric, one row each, in the order
-- analyze reports them (metric_order): the per-request metrics of
-- request_metrics, the pooled itl_samples and the chunk_gaps.
CREATE OR REPLACE VIEW metric_samples AS
SELECT source, host, model, endpoint, success, 1 AS metric_order, 'ttft' AS metric, 'ms' AS unit, ttft_ms AS value
FROM request_metrics WHERE ttft_ms IS NOT NULL
UNION ALL
SELECT source, host, model, endpoint, success, 2, 'time_to_headers', 'ms', time_to_headers_ms
FROM request_metrics WHERE time_to_headers_ms IS NOT NULL
UNION ALL
SELECT source, host, model, endpoint, success, 3, 'e2e', 'ms', e2e_ms
FROM request_metrics WHERE e2e_ms IS NOT NULL
UNION ALL
SELECT source, host, model, endpoint, success, 4, 'tpot', 'ms', tpot_ms
FROM request_metrics WHERE tpot_ms IS NOT NULL
UNION ALL
SELECT source, host, model, endpoint, success, 5, 'itl', 'ms', itl_ms
FROM itl_samples
UNION ALL
SELECT source, host, model, endpoint, success, 6, 'chunk_gap', 'ms', gap_ms
FROM chunk_gaps
UNION ALL
SELECT source, host, model, endpoint, success, 7, 'tps_user', 'tokens/s', tps_user
FROM request_metrics WHERE tps_user IS NOT NULL
UNION ALL
SELECT source, host, model, endpoint, success, 8, 'queue', 'ms', queue_ms
FROM request_metrics WHERE queue_ms IS NOT NULL
UNION ALL
SELECT source, host, model, endpoint, success, 9, 'prefill', 'ms', prefill_ms
FROM request_metrics WHERE prefill_ms IS NOT NULL
UNION ALL
SELECT source, host, model, endpoint, success, 10, 'decode', 'ms', decode_ms
FROM request_metrics WHERE decode_ms IS NOT NULL;
{{- end}}

{{define "errors" -}}
-- error_counts: failed requests per source and failure class (analyze's
-- "errors"): the error class when logged, else interrupted for a stream cut
-- short, else the class of the HTTP status.
CREATE OR REPLACE VIEW error_counts AS
SELECT source, failure_class, count(*) AS requests
FROM request_metrics
WHERE NOT success
GROUP BY source, failure_class;
{{- end}}

{{define "percentiles" -}}
-- metric_percentiles: exact type 7 percentiles of every metric over
-- successful requests, computed with window functions only, so any engine
-- gets analyze's figures (it sorts every sample of a metric). With the n
-- samples of a source and metric ranked r = 0…n−1 by value and h = (n−1)·q,
-- the percentile is x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]).
CREATE OR REPLACE VIEW metric_percentiles AS
WITH ranked AS (
  SELECT
    source, metric_order, metric, unit, value,
    row_number() OVER (PARTITION BY source, metric_order ORDER BY value) - 1 AS r,
    count(*) OVER (PARTITION BY source, metric_order) AS n
  FROM metric_samples
  WHERE success
),
levels AS (
  SELECT 'p50' AS percentile, CAST(0.5 AS DOUBLE) AS q
  UNION ALL SELECT 'p90', CAST(0.9 AS DOUBLE)
  UNION ALL SELECT 'p95', CAST(0.95 AS DOUBLE)
  UNION ALL SELECT 'p99', CAST(0.99 AS DOUBLE)
  UNION ALL SELECT 'p999', CAST(0.999 AS DOUBLE)
),
ranks AS (
  SELECT
    m.source, m.metric_order, m.metric, m.unit, l.percentile, l.q,
    CAST(m.n - 1 AS DOUBLE) * l.q AS h
  FROM (SELECT DISTINCT source, metric_order, metric, unit, n FROM ranked) m
  CROSS JOIN levels l
)
SELECT
  k.source, k.metric_order, k.metric, k.unit, k.percentile, k.q,
  lo.value + (k.h - floor(k.h)) * (coalesce(hi.value, lo.value) - lo.value) AS value
FROM ranks k
JOIN ranked lo
  ON lo.source = k.source AND lo.metric_order = k.metric_order
  AND lo.r = CAST(floor(k.h) AS BIGINT)
LEFT JOIN ranked hi
  ON hi.source = k.source AND hi.metric_order = k.metric_order
  AND hi.r = CAST(floor(k.h) AS BIGINT) + 1;
{{- end}}
