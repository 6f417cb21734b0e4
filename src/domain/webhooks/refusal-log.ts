import type { Deps } from '../deps.js';

/**
 * A target the SSRF filter refused is otherwise visible only in webhookDeliveries; a developer
 * whose local receiver gets nothing looks at the log first, so it says why and what to change.
 */
export function logRefusedTarget(deps: Pick<Deps, 'log'>, delivery: { id: string; endpoint: { url: string } }, error: string | null): void {
  if (error === null || !/not allowed/i.test(error)) return;
  deps.log.warn(
    { deliveryId: delivery.id, url: delivery.endpoint.url, reason: error, setting: 'WEBHOOK_ALLOW_PRIVATE' },
    'webhook target refused: it resolves to a loopback, private or reserved address; set WEBHOOK_ALLOW_PRIVATE=1 to allow it (development only)',
  );
}
