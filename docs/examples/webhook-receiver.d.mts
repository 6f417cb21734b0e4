/** Verifies `X-Service-Signature` over the raw body with a 5-minute tolerance. */
export function verify(header: unknown, rawBody: string, secret: string, nowSeconds?: number): boolean;
