import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Credentials that may sit in a logged object: keys and device tokens (shown once), webhook
 * secrets, payment tokens (a token can cancel its payment). Request URLs are redacted by the
 * HTTP request serializer (src/http/log-redaction.ts).
 */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'authorization',
  '*.authorization',
  '*.secret',
  '*.apiKey',
  '*.token',
  '*.merchantKey',
  '*.deviceToken',
  '*.secretKey',
  '*.webhookSecret',
  'token',
  'apiKey',
  'secret',
  'merchantKey',
  'variables',
  '*.variables',
];

/** Structured JSON logs on stderr, so `--json` CLI output on stdout stays clean. */
export function createLogger(level: string, name = 'gateway', destination: DestinationStream = pino.destination(2)): Logger {
  return pino({ name, level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}
