import { issueCredential } from '../auth/credentials.js';

/**
 * A hook secret stands for a device token in the URL `/v1/device/hooks/{secret}`, for forwarder
 * apps that cannot send an Authorization header. Like tokens it is shown once and stored as SHA-256.
 */
export const HOOK_SECRET_PREFIX = 'dh_';
export const HOOK_SECRET_PATTERN = /^dh_[A-Za-z0-9]{20,128}$/;

export function hookUrl(publicBaseUrl: string, secret: string): string {
  return `${publicBaseUrl}/v1/device/hooks/${secret}`;
}

/** The columns that make a new hook live; writing them over an old hook revokes that one. */
export function newHookColumns() {
  const issued = issueCredential(HOOK_SECRET_PREFIX);
  return { secret: issued.secret, data: { hookSecretHash: issued.hash, hookSecretPrefix: issued.prefix, hookIssuedAt: new Date() } };
}

export const NO_HOOK = { hookSecretHash: null, hookSecretPrefix: null, hookIssuedAt: null };
