export { Gateway, Payments, Refunds, SDK_VERSION } from './client.js';
export type { DeprecationNotice, GatewayOptions, IdempotencyOptions, RequestOptions, RetryOptions } from './client.js';
export { GatewayError, WebhookSignatureError } from './errors.js';
export type { WebhookSignatureReason } from './errors.js';
export { verifyWebhook } from './webhook.js';
export type { VerifyWebhookOptions } from './webhook.js';
export type * from './types.js';
export type { components, operations, paths } from './openapi-types.js';
