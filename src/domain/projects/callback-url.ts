import { AppError } from '../../errors.js';

/**
 * A callback must be https (docs/integration.md "1. Create a payment") and, when the project lists
 * allowed hosts, go to one of them. Shape errors are 400s on `field`; a host outside the list is
 * 422.
 */
export function checkCallbackUrl(project: { allowedCallbackHosts: string[] }, url: string, field = 'callbackUrl'): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw AppError.invalid([{ field, message: 'must be an absolute https URL' }]);
  }
  if (parsed.protocol !== 'https:') throw AppError.invalid([{ field, message: 'must use https' }]);
  if (url.length > 2048) throw AppError.invalid([{ field, message: 'must be at most 2048 characters' }]);
  const host = parsed.hostname.toLowerCase();
  if (project.allowedCallbackHosts.length > 0 && !project.allowedCallbackHosts.includes(host)) {
    throw new AppError('callback_host_not_allowed', undefined, { host, allowedHosts: project.allowedCallbackHosts });
  }
  return url;
}
