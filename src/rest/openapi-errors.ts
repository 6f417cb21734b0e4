import { errorExample } from './openapi-schemas.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 413 | 422 | 429 | 500 | 503;

const ERROR_RESPONSES: Record<ErrorStatus, [name: string, description: string, examples: Record<string, ReturnType<typeof errorExample>>]> = {
  400: ['BadRequest', 'The body is not JSON, or a field breaks a rule (`details.fields` names each one).', {
    invalid_request: errorExample('invalid_request', 'The request is invalid.', { fields: [{ field: 'amount', message: 'must be between 10000 and 1000000000 rials' }] }),
    unknown_field: errorExample('invalid_request', 'foo: is not a field of this request', { fields: [{ field: 'foo', message: 'is not a field of this request' }] }),
    invalid_json: errorExample('invalid_json', 'The request body is not valid JSON.'),
  }],
  401: ['Unauthorized', 'The credential is missing, malformed, unknown, revoked or of the wrong kind. At sign-in, `totp_required`: the password is right and the user has two-factor on, so `totp` is needed too.', {
    unauthorized: errorExample('unauthorized', 'A valid credential is required: Authorization: Bearer <key>.'),
    totp_required: errorExample('totp_required', 'This user signs in with a two-factor code too: send totp (the authenticator’s current code, or a recovery code).'),
  }],
  402: ['PaymentRequired', 'The merchant’s available credit is below this payment’s fee; nothing was created.', {
    merchant_credit_exhausted: errorExample('merchant_credit_exhausted', "The merchant's credit is used up."),
  }],
  403: ['Forbidden', 'The project or merchant is inactive, (simulation) the project is live, or (a dashboard session) the role does not allow it: `forbidden`, or the merchant requires two-factor and the user has not set it up: `totp_required`.', {
    project_inactive: errorExample('project_inactive', 'The project is not active.'),
    merchant_inactive: errorExample('merchant_inactive', 'The merchant is not active.'),
    sandbox_only: errorExample('sandbox_only', 'This operation is only available on sandbox projects.'),
    totp_required: errorExample('totp_required', 'Two-factor sign-in is required: set it up (enableTotp, confirmTotp) before deciding payments.'),
  }],
  404: ['NotFound', 'No such id, token or slug among those the caller may see.', { not_found: errorExample('not_found', 'Not found.') }],
  409: ['Conflict', 'The payment’s state does not allow this (`details.status`), an Idempotency-Key was reused with another body, route or target, or its first request is still running (`idempotency_conflict`), or verify was given an amount that is not the payment’s.', {
    invalid_state: errorExample('invalid_state', 'The payment is not pending.', { status: 'confirmed' }),
    amount_mismatch: errorExample('amount_mismatch', 'The amount given (15000000 rials) is not the payment’s amountRequested (1500000 rials).', { amountRequested: '1500000', given: '15000000' }),
    idempotency_conflict: errorExample('idempotency_conflict', 'This Idempotency-Key was used with a different body.'),
  }],
  413: ['PayloadTooLarge', 'The body is over 64 KiB.', { payload_too_large: errorExample('payload_too_large', 'The request body is too large.') }],
  422: ['Unprocessable', 'The callback URL’s host is not among the project’s allowed hosts.', {
    callback_host_not_allowed: errorExample('callback_host_not_allowed', 'The callback host is not allowed.', { host: 'evil.example.net' }),
  }],
  429: ['RateLimited', 'Too many requests; retry after `Retry-After` seconds.', { rate_limited: errorExample('rate_limited', 'Too many requests.') }],
  500: ['InternalError', 'Something failed inside the service; nothing internal is shown.', { internal_error: errorExample('internal_error', 'Internal error.') }],
  503: ['ServiceUnavailable', 'On a create, `no_card_available`: no card can take this payment; `details.reasons` says why: no_active_card, device_offline, daily_amount_cap_reached, daily_count_cap_reached, monthly_amount_cap_reached, monthly_count_cap_reached, codes_exhausted. On any route, `unavailable`: the database cannot be reached (an outage, a failover); retry after `Retry-After` seconds, a create with the same Idempotency-Key (whether it was made is not known).', {
    no_card_available: errorExample('no_card_available', 'No card is available.', { reasons: ['device_offline', 'daily_amount_cap_reached'] }),
    unavailable: errorExample('unavailable', 'The database connection was lost; try again.', { retryAfterSeconds: 1 }),
  }],
};

/** One reusable response per error status, with an example of each code it carries. */
export const responseComponents = Object.fromEntries(
  Object.entries(ERROR_RESPONSES).map(([status, [name, description, examples]]) => [
    name,
    {
      description,
      ...(status === '429' || status === '503' ? { headers: { 'Retry-After': { description: 'Seconds to wait (429; 503 `unavailable`).', schema: { type: 'integer' } } } } : {}),
      content: { 'application/json': { schema: ref('Error'), examples } },
    },
  ]),
);

/** The error answers of a route: the statuses it can answer with, and 500 and 503 (the database unreachable), which any route can. */
export const errors = (...statuses: ErrorStatus[]) =>
  Object.fromEntries([...new Set<ErrorStatus>([...statuses, 500, 503])].map((s) => [s, { $ref: `#/components/responses/${ERROR_RESPONSES[s][0]}` }]));

