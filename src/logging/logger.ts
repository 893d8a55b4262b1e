import pino, { type Logger } from 'pino';

/** Paths pino replaces with "[redacted]" wherever they appear in a log record. */
export const REDACTED_PATHS = [
  'apiKey',
  '*.apiKey',
  '*.*.apiKey',
  'OPENAI_API_KEY',
  '*.OPENAI_API_KEY',
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'headers.Authorization',
  '*.headers.Authorization',
  '*["x-api-key"]',
  'api_key',
  '*.api_key',
  // Elasticsearch and Temporal credentials (config.elasticsearch.auth, config.temporal.tls/apiKey).
  ...['password', 'ES_API_KEY', 'ES_PASSWORD', 'TEMPORAL_API_KEY', 'clientCertPair', 'auth'].flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
  ...['serperApiKey', 'tavilyApiKey', 'braveApiKey', 'searchApiKey', 'pubmedApiKey', 'openAlexApiKey'].flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
];

export type { Logger };

/** Structured logs go to stderr so that `--json` output on stdout stays machine-readable. */
export function createLogger(level: string = process.env.VERITY_LOG_LEVEL ?? 'info', destination?: pino.DestinationStream): Logger {
  return pino(
    {
      name: 'verity',
      level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      base: { pid: process.pid },
    },
    destination ?? pino.destination({ fd: 2, sync: true }),
  );
}
