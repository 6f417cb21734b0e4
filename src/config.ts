import proxyaddr from 'proxy-addr';
import { z } from 'zod';

const positiveNumber = (fallback: number) => z.coerce.number().positive().default(fallback);

/** Whom a request's X-Forwarded-For is believed from: Express's `trust proxy`, compiled once. */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY takes Express's values (docs/operations.md): `true`, `false`, a hop count, or
 * comma-separated names (`loopback`, `linklocal`, `uniquelocal`), addresses and CIDRs. Express reads
 * a string only as that list, where `true` is an invalid address (a TypeError at start) and `1` the
 * address 0.0.0.1; so the words and the count are read here as Express means them, and the list is
 * compiled by Express's own proxy-addr. Express (req.ip) and the WebSocket path
 * (src/http/client-address.ts) share the one function.
 */
const trustProxySchema = z
  .string()
  .optional()
  .transform((raw, ctx): TrustProxy | undefined => {
    const value = raw?.trim().toLowerCase() ?? '';
    if (value === '' || value === 'false') return undefined;
    if (value === 'true') return () => true;
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      return (_address, hop) => hop < hops;
    }
    try {
      return proxyaddr.compile(value.split(',').map((v) => v.trim()));
    } catch (err) {
      ctx.addIssue({
        code: 'custom',
        message: `${(err as Error).message} (true, false, a hop count, or comma-separated loopback/linklocal/uniquelocal, addresses and CIDRs)`,
      });
      return z.NEVER;
    }
  });

const inFlight = (fallback: number) => z.coerce.number().int().min(1).max(256).default(fallback);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z.url().optional(),
  // A session of its own (migrations, LISTEN, pg-boss wake-ups) when DATABASE_URL is a transaction pooler.
  DATABASE_DIRECT_URL: z.url().optional(),
  // A streaming replica for exports, stats and dashboard lists (docs/operations.md "Read replica").
  DATABASE_READ_URL: z.url().optional(),
  DATABASE_READ_MAX_LAG_SECONDS: z.coerce.number().positive().default(30),
  // Connections each process keeps to DATABASE_URL (default: 10 for an API process, 24 for a worker or `all`).
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(500).optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_BASE_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SECRET_KEY: z.string().min(32, 'SECRET_KEY must be at least 32 characters').optional(),
  // Unset means: on for the embedded development default, off otherwise (see loadConfig).
  WEBHOOK_ALLOW_PRIVATE: z.enum(['0', '1', 'true', 'false']).optional(),
  WEBHOOK_RETRY_SCALE: positiveNumber(1),
  JOB_CONCURRENCY: inFlight(8),
  EXPIRY_CONCURRENCY: inFlight(32),
  // At least 2: half the webhook workers are kept for first attempts, the rest also take retries.
  WEBHOOK_CONCURRENCY: inFlight(32).refine((n) => n >= 2, "must be at least 2"),
  WEBHOOK_ENDPOINT_CONCURRENCY: inFlight(8),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(6000),
  PUBLIC_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  // A device with active cards silent this long is offline: card choice skips it, device.offline is sent.
  DEVICE_OFFLINE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  TRUST_PROXY: trustProxySchema,
  METRICS_TOKEN: z.string().min(1).optional(),
  // Production hides the schema; this lets an operator who wants it public say so.
  GRAPHQL_INTROSPECTION: z.enum(['0', '1', 'true', 'false']).optional(),
  // Chat bots (docs/notifications.md): each runs only when its token is set.
  TELEGRAM_BOT_TOKEN: z.string().min(1).optional(),
  TELEGRAM_API_ROOT: z.url().default('https://api.telegram.org'),
  BALE_BOT_TOKEN: z.string().min(1).optional(),
  BALE_API_ROOT: z.url().default('https://tapi.bale.ai'),
  // A bot's poller lease: renewed while held, taken over by another worker once it lapses.
  CHAT_POLL_LEASE_SECONDS: z.coerce.number().min(1).max(60).default(20),
  // Password-reset mail (docs/dashboard.md "Signing in"): both or neither; credentials in the URL.
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL (smtps://user:password@mail.example.com:465)')
    .optional(),
  MAIL_FROM: z.string().min(3).max(320).optional(),
  // Retention (docs/operations.md "Retention"): days each kind of data is kept before the daily job removes it.
  RETENTION_FOREIGN_SMS_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  RETENTION_WEBHOOK_BODY_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  RETENTION_SESSION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  RETENTION_JOB_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  RETENTION_CHAT_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).default(54329),
  DATA_DIR: z.string().default('.data'),
});

export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  databaseUrl: string | undefined;
  /**
   * Straight to PostgreSQL (default: DATABASE_URL), for what needs a session of its own:
   * migrations and their lock, LISTEN (payment fan-out, credential cache) and pg-boss's wake-ups.
   * DATABASE_URL may then be PgBouncer in transaction mode. Unset with the embedded default.
   */
  databaseDirectUrl: string | undefined;
  /**
   * A streaming replica (DATABASE_READ_URL) for reads that may lag: exports, paymentStats and the
   * dashboard's lists. Never money decisions, never a read of what the caller just wrote. Unset:
   * those read the primary.
   */
  databaseReadUrl: string | undefined;
  /** Beyond this replica lag (seconds) those reads go to the primary too. */
  databaseReadMaxLagSeconds: number;
  /** DATABASE_POOL_SIZE: connections each pool of this process keeps to DATABASE_URL (an `all` process has two: requests and jobs); unset, each side's default (src/runtime.ts). */
  databasePoolSize: number | undefined;
  port: number;
  publicBaseUrl: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  secretKey: string | undefined;
  webhookAllowPrivate: boolean;
  webhookRetryScale: number;
  /** Jobs in flight per queue per worker process, for queues without their own setting. */
  jobConcurrency: number;
  /** Payments the expiry sweep (jobs/expire-due.ts) expires at once per worker process, over two lanes. */
  expiryConcurrency: number;
  /** Webhook attempts in flight per worker process (the global limit). */
  webhookConcurrency: number;
  /** Webhook attempts in flight per endpoint, across all worker processes. */
  webhookEndpointConcurrency: number;
  rateLimitPerMinute: number;
  publicRateLimitPerMinute: number;
  /** Seconds of silence after which a device is offline (src/domain/devices/health.ts). */
  deviceOfflineSeconds: number;
  /** Unset: no proxy is trusted, the client is the socket's peer. */
  trustProxy: TrustProxy | undefined;
  metricsToken: string | undefined;
  /** Introspection in production (always on elsewhere). */
  graphqlIntrospection: boolean;
  /** The chat bots whose token is set (src/domain/chat/bots.ts), by platform. */
  chatBots: Partial<Record<'TELEGRAM' | 'BALE', { token: string; apiRoot: string }>>;
  /** Seconds a worker holds a bot's poller lease without renewing it. */
  chatPollLeaseSeconds: number;
  /** Days kept before the daily retention job removes each kind (src/domain/retention/retention.ts). */
  retention: { foreignSmsDays: number; webhookBodyDays: number; sessionDays: number; jobDays: number; chatDays: number };
  /** SMTP_URL and MAIL_FROM: password-reset mail is sent only when both are set. */
  mail: { smtpUrl: string; from: string } | undefined;
  embeddedPgPort: number;
  dataDir: string;
};

export class ConfigError extends Error {}

/** Reads and checks the environment once; a bad value stops start-up with a message naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    // One line per bad variable, naming it (docs/operations.md): what an operator reads first.
    const lines = parsed.error.issues.map((i) => `Invalid environment: ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(lines.join('\n'));
  }
  const e = parsed.data;
  if (e.DATABASE_URL && !e.SECRET_KEY) {
    throw new ConfigError(
      'Invalid environment: SECRET_KEY: required when DATABASE_URL is set (it encrypts stored webhook secrets)',
    );
  }
  if (e.DATABASE_READ_URL && !e.DATABASE_URL) {
    throw new ConfigError('Invalid environment: DATABASE_READ_URL: set it together with DATABASE_URL (the replica of that database)');
  }
  if (e.DATABASE_DIRECT_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      'Invalid environment: DATABASE_DIRECT_URL: set it together with DATABASE_URL (the embedded default needs neither)',
    );
  }
  if (Boolean(e.SMTP_URL) !== Boolean(e.MAIL_FROM)) {
    throw new ConfigError(`Invalid environment: ${e.SMTP_URL ? 'MAIL_FROM' : 'SMTP_URL'}: set SMTP_URL and MAIL_FROM together (password-reset mail needs both)`);
  }
  return {
    nodeEnv: e.NODE_ENV,
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL ?? e.DATABASE_URL,
    databaseReadUrl: e.DATABASE_READ_URL,
    databaseReadMaxLagSeconds: e.DATABASE_READ_MAX_LAG_SECONDS,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    port: e.PORT,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    logLevel: e.LOG_LEVEL,
    secretKey: e.SECRET_KEY,
    // A developer on the embedded default runs receivers on localhost; production never does.
    webhookAllowPrivate:
      e.WEBHOOK_ALLOW_PRIVATE === undefined ? !e.DATABASE_URL && e.NODE_ENV !== 'production' : e.WEBHOOK_ALLOW_PRIVATE === '1' || e.WEBHOOK_ALLOW_PRIVATE === 'true',
    webhookRetryScale: e.WEBHOOK_RETRY_SCALE,
    jobConcurrency: e.JOB_CONCURRENCY,
    expiryConcurrency: e.EXPIRY_CONCURRENCY,
    webhookConcurrency: e.WEBHOOK_CONCURRENCY,
    webhookEndpointConcurrency: e.WEBHOOK_ENDPOINT_CONCURRENCY,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    publicRateLimitPerMinute: e.PUBLIC_RATE_LIMIT_PER_MINUTE,
    deviceOfflineSeconds: e.DEVICE_OFFLINE_SECONDS,
    trustProxy: e.TRUST_PROXY,
    metricsToken: e.METRICS_TOKEN,
    graphqlIntrospection: e.GRAPHQL_INTROSPECTION === '1' || e.GRAPHQL_INTROSPECTION === 'true',
    chatBots: {
      ...(e.TELEGRAM_BOT_TOKEN ? { TELEGRAM: { token: e.TELEGRAM_BOT_TOKEN, apiRoot: e.TELEGRAM_API_ROOT.replace(/\/+$/, '') } } : {}),
      ...(e.BALE_BOT_TOKEN ? { BALE: { token: e.BALE_BOT_TOKEN, apiRoot: e.BALE_API_ROOT.replace(/\/+$/, '') } } : {}),
    },
    chatPollLeaseSeconds: e.CHAT_POLL_LEASE_SECONDS,
    retention: {
      foreignSmsDays: e.RETENTION_FOREIGN_SMS_DAYS,
      webhookBodyDays: e.RETENTION_WEBHOOK_BODY_DAYS,
      sessionDays: e.RETENTION_SESSION_DAYS,
      jobDays: e.RETENTION_JOB_DAYS,
      chatDays: e.RETENTION_CHAT_DAYS,
    },
    mail: e.SMTP_URL && e.MAIL_FROM ? { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM } : undefined,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    dataDir: e.DATA_DIR,
  };
}
