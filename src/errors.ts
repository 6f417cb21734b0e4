/** Every error a client can see: one code, one HTTP status, one place. */
export const errorCatalog = {
  invalid_json: 400,
  invalid_request: 400,
  unauthorized: 401,
  merchant_credit_exhausted: 402,
  project_inactive: 403,
  merchant_inactive: 403,
  sandbox_only: 403,
  forbidden: 403,
  /** 403 on a decision; at sign-in (no session yet) the same code is 401: `AppError.totpRequiredAtSignIn`. */
  totp_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  invalid_state: 409,
  idempotency_conflict: 409,
  slug_taken: 409,
  limit_reached: 409,
  amount_mismatch: 409,
  refund_exceeds_payment: 409,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  callback_host_not_allowed: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  no_card_available: 503,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorCatalog;
export type ErrorDetails = Record<string, unknown>;
export type FieldError = { field: string; message: string };
/** Why a decision is refused in the state it found, as a pure check states it: the caller throws it as an AppError. */
export type Refusal = { code: ErrorCode; message: string; details: ErrorDetails };

const defaultMessages: Record<ErrorCode, string> = {
  invalid_json: 'The request body is not valid JSON.',
  invalid_request: 'The request is invalid.',
  unauthorized: 'A valid credential is required: Authorization: Bearer <key>.',
  merchant_credit_exhausted: "The merchant's credit is used up.",
  project_inactive: 'The project is not active.',
  merchant_inactive: 'The merchant is not active.',
  sandbox_only: 'This operation is only available on sandbox projects.',
  forbidden: 'Your role does not allow this operation.',
  totp_required: 'Two-factor sign-in is required: set it up (enableTotp, confirmTotp) before deciding payments.',
  not_found: 'Not found.',
  method_not_allowed: 'This method is not allowed on this path.',
  request_timeout: 'The request did not arrive in time.',
  invalid_state: 'The operation is not allowed in the current state.',
  idempotency_conflict: 'The Idempotency-Key was used with a different request, or that request is still running.',
  slug_taken: 'The slug is already used.',
  limit_reached: 'A limit on active credentials is reached; revoke one first.',
  amount_mismatch: 'The amount is not the payment’s.',
  refund_exceeds_payment: 'Refunds would sum above what the payment received.',
  conflict: 'The request conflicts with existing data.',
  payload_too_large: 'The request body is larger than 64 KiB.',
  unsupported_media_type: 'The request body has a media type this path does not accept.',
  callback_host_not_allowed: "The callback host is not among the project's allowed hosts.",
  rate_limited: 'Too many requests.',
  headers_too_large: 'The request headers (or URL) are too large.',
  internal_error: 'Something went wrong on our side.',
  no_card_available: 'No card is available for this payment.',
  unavailable: 'The service is not ready.',
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;
  readonly status: number;

  constructor(code: ErrorCode, message?: string, details: ErrorDetails = {}, status: number = errorCatalog[code]) {
    super(message ?? defaultMessages[code]);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
    this.status = status;
  }

  /** The password was right and the user has two-factor on: the sign-in needs `totp` too (401: there is no session yet). */
  static totpRequiredAtSignIn(): AppError {
    return new AppError('totp_required', 'This user signs in with a two-factor code too: send totp (the authenticator’s current code, or a recovery code).', {}, 401);
  }

  static invalid(fields: FieldError[], message?: string): AppError {
    const text = message ?? fields.map((f) => `${f.field}: ${f.message}`).join('; ');
    return new AppError('invalid_request', text || undefined, { fields });
  }

  static notFound(what = 'Resource'): AppError {
    return new AppError('not_found', `${what} not found.`);
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

/** The REST envelope: `details` inside `error` and, for readers of the spec, at the top too. */
export function errorBody(err: AppError) {
  return {
    error: { code: err.code, message: err.message, details: err.details },
    details: err.details,
  };
}
