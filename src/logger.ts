import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs on stderr, so `--json` CLI output on stdout stays clean. */
export function createLogger(level: string, name = 'gateway'): Logger {
  return pino(
    {
      name,
      level,
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', '*.secret', '*.apiKey', '*.token'],
        censor: '[redacted]',
      },
    },
    pino.destination(2),
  );
}
