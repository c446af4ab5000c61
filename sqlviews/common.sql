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
