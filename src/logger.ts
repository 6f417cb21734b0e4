import { pino, type DestinationStream, type Level, type Logger } from 'pino';

export type { Logger };

/**
 * The level an answer is logged at, on both doors: a 500 is a bug (its stack is logged where it
 * was translated, src/error-translator.ts); any other 5xx is a catalog answer an operator should
 * see (503 no_card_available); a 4xx is the caller's doing.
 */
export function answerLevel(status: number): Level {
  if (status === 500) return 'error';
  if (status >= 500) return 'warn';
  if (status >= 400) return 'info';
  return 'debug';
}

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
