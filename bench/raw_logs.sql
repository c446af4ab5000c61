-- DuckDB computing ttftrace's core per-source figures straight from the raw
-- logs of `ttftrace-gen` (client JSONL, GenAI-Perf export, nginx, Envoy JSON,
-- vLLM OTLP spans, TGI router log). bench/duckdb.mjs replaces @DIR@ with the
-- data folder. It is the "throw DuckDB at the logs" baseline of bench/run.sh.
SET threads = 2;

-- Client: ttftrace JSONL. TTFT = first content chunk; ITL = gaps between
-- content chunks; TPOT = (last − first)/(tokens − 1); e2e = end_ms.
CREATE TEMP TABLE client AS
SELECT list_transform(list_filter(chunks, c -> c.kind = 'content'), c -> c.t_ms) AS ct,
       end_ms, output_tokens
FROM read_json('@DIR@/*.client.jsonl', format = 'newline_delimited',
     columns = {request_id: 'VARCHAR', start: 'VARCHAR', status: 'INTEGER', error: 'VARCHAR',
                output_tokens: 'BIGINT', end_ms: 'DOUBLE',
                chunks: 'STRUCT(t_ms DOUBLE, tokens INTEGER, kind VARCHAR)[]'})
WHERE status BETWEEN 200 AND 299 AND error IS NULL;

-- Client: GenAI-Perf export, one JSON document. A response whose SSE text
-- carries non-empty delta content is a token; TTFT = its first timestamp.
CREATE TEMP TABLE genai AS
WITH req AS (
  SELECT unnest(e.requests, recursive := false) AS r
  FROM (SELECT unnest(experiments) AS e
        FROM read_json('@DIR@/*.profile_export.json', format = 'auto', maximum_object_size = 4000000000))
), resp AS (
  SELECT r.timestamp AS t0,
         list_transform(list_filter(list_zip(r.response_timestamps, r.response_outputs),
                        z -> regexp_matches(z[2].response, '"delta":\{"content":"[^"]')), z -> (z[1] - r.timestamp) / 1e6) AS ct,
         (r.response_timestamps[-1] - r.timestamp) / 1e6 AS end_ms,
         list_count(list_filter(r.response_outputs, o -> regexp_matches(o.response, '"delta":\{"content":"[^"]'))) AS output_tokens,
         list_bool_or(list_transform(r.response_outputs, o -> contains(o.response, '[DONE]'))) AS done
  FROM req
)
SELECT ct, end_ms, output_tokens FROM resp WHERE done;

CREATE TEMP TABLE client_all AS SELECT * FROM client UNION ALL SELECT * FROM genai;

-- Proxy: nginx (NginxLogFormat) and Envoy JSON.
CREATE TEMP TABLE nginx AS
SELECT CAST(regexp_extract(line, ' rt=([0-9.]+)', 1) AS DOUBLE) * 1000 AS e2e,
       TRY_CAST(regexp_extract(line, ' uht="([0-9.]+)"', 1) AS DOUBLE) * 1000 AS tth,
       CAST(regexp_extract(line, '" ([0-9]{3}) ', 1) AS INTEGER) AS status
FROM read_csv('@DIR@/*.access.log', columns = {line: 'VARCHAR'}, delim = '\x01', quote = '', escape = '', header = false);

CREATE TEMP TABLE envoy AS
SELECT duration AS e2e, response_duration AS tth, first_body_byte AS ttft, response_code AS status, response_flags
FROM read_json('@DIR@/*.access.json', format = 'newline_delimited');

-- Server: vLLM OTLP spans (latencies in seconds as span attributes).
CREATE TEMP TABLE vllm AS
WITH spans AS (
  SELECT unnest(ss.spans) AS s
  FROM (SELECT unnest(rs.scopeSpans) AS ss
        FROM (SELECT unnest(resourceSpans) AS rs FROM read_json('@DIR@/*.spans.jsonl', format = 'newline_delimited')))
)
SELECT list_filter(s.attributes, a -> a.key = 'gen_ai.latency.time_to_first_token')[1].value.doubleValue * 1000 AS ttft,
       list_filter(s.attributes, a -> a.key = 'gen_ai.latency.e2e')[1].value.doubleValue * 1000 AS e2e,
       list_filter(s.attributes, a -> a.key = 'gen_ai.latency.time_in_queue')[1].value.doubleValue * 1000 AS queue,
       coalesce(s.status.code, 0) AS code
FROM spans;

-- Server: TGI router log; Rust durations ("1.2s", "3.4ms", "5.6µs").
CREATE MACRO rust_ms(d) AS CASE
  WHEN d LIKE '%ms' THEN CAST(replace(d, 'ms', '') AS DOUBLE)
  WHEN d LIKE '%µs' THEN CAST(replace(d, 'µs', '') AS DOUBLE) / 1000
  WHEN d LIKE '%ns' THEN CAST(replace(d, 'ns', '') AS DOUBLE) / 1e6
  WHEN d LIKE '%s' THEN CAST(replace(d, 's', '') AS DOUBLE) * 1000 END;
CREATE TEMP TABLE tgi AS
SELECT rust_ms(regexp_extract(line, 'total_time="([^"]+)"', 1)) AS e2e,
       rust_ms(regexp_extract(line, 'queue_time="([^"]+)"', 1)) AS queue
FROM read_csv('@DIR@/*.router.log', columns = {line: 'VARCHAR'}, delim = '\x01', quote = '', escape = '', header = false)
WHERE line LIKE '%: Success%';

CREATE MACRO q(x) AS quantile_cont(x, [0.5, 0.9, 0.99]);
SELECT 'client' AS source, 'ttft' AS metric, count(*) AS n, q(ct[1]) AS p50_p90_p99 FROM client_all WHERE len(ct) > 0
UNION ALL SELECT 'client', 'e2e', count(*), q(end_ms) FROM client_all
UNION ALL SELECT 'client', 'tpot', count(*), q((ct[-1] - ct[1]) / (output_tokens - 1)) FROM client_all WHERE output_tokens > 1
UNION ALL SELECT 'client', 'itl', count(*), q(g) FROM (SELECT unnest(list_transform(range(2, len(ct) + 1), i -> ct[i] - ct[i - 1])) AS g FROM client_all)
UNION ALL SELECT 'proxy', 'e2e', count(*), q(e2e) FROM (SELECT e2e FROM nginx WHERE status BETWEEN 200 AND 299 UNION ALL SELECT e2e FROM envoy WHERE status BETWEEN 200 AND 299 AND response_flags = '-')
UNION ALL SELECT 'proxy', 'time_to_headers', count(*), q(tth) FROM (SELECT tth FROM nginx WHERE status BETWEEN 200 AND 299 UNION ALL SELECT tth FROM envoy WHERE status BETWEEN 200 AND 299 AND response_flags = '-')
UNION ALL SELECT 'server', 'ttft', count(*), q(ttft) FROM vllm WHERE code = 0 AND ttft IS NOT NULL
UNION ALL SELECT 'server', 'e2e', count(*), q(e2e) FROM (SELECT e2e FROM vllm WHERE code = 0 UNION ALL SELECT e2e FROM tgi)
UNION ALL SELECT 'server', 'queue', count(*), q(queue) FROM (SELECT queue FROM vllm WHERE code = 0 UNION ALL SELECT queue FROM tgi)
ORDER BY 1, 2;
