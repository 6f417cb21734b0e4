import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { deliverWebhookJob } from '../../jobs/deliver-webhook.js';

describe('job concurrency settings', () => {
  it('default to several jobs in flight per queue, and a webhook plan that keeps half its workers for first attempts', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ jobConcurrency: 8, expiryConcurrency: 32, webhookConcurrency: 32, webhookEndpointConcurrency: 8 });
    const [firstOnly, shared] = deliverWebhookJob.plan!(config);
    expect(firstOnly).toMatchObject({ workers: 16, batchSize: 1, minPriority: 1, perGroup: 8 });
    expect(deliverWebhookJob.plan!(loadConfig({ WEBHOOK_CONCURRENCY: '4' }))[0]).toMatchObject({ workers: 2, perGroup: 2 });
    expect(shared).toMatchObject({ workers: 16, batchSize: 1, perGroup: 8 });
    expect(shared!.minPriority).toBeUndefined();
  });

  it('refuses values that are not whole numbers in range, naming the variable', () => {
    expect(() => loadConfig({ EXPIRY_CONCURRENCY: '0' })).toThrow(/EXPIRY_CONCURRENCY/);
    expect(() => loadConfig({ WEBHOOK_CONCURRENCY: '1' })).toThrow(/WEBHOOK_CONCURRENCY: must be at least 2/);
    expect(() => loadConfig({ WEBHOOK_ENDPOINT_CONCURRENCY: 'many' })).toThrow(/WEBHOOK_ENDPOINT_CONCURRENCY/);
    expect(() => loadConfig({ JOB_CONCURRENCY: '2.5' })).toThrow(/JOB_CONCURRENCY/);
  });
});
