import type { Deps } from '../src/domain/deps.js';
import { sweepEveryMs } from '../src/domain/devices/health.js';
import { reportHealthChanges } from '../src/domain/devices/health-sweep.js';
import { reportOfflineDevices, reportReturnedDevices } from '../src/domain/devices/transitions.js';
import { oneAtATime, type JobDefinition } from '../src/queue/job-queue.js';

export const DEVICE_HEALTH_JOB = 'device-health';

/**
 * Reports devices with active cards that went silent (device.offline), devices seen again
 * whose device.online a crashed request did not send, and every change of a device's health
 * (Device.healthEvents; device.low_battery, device.silent). Each run queues the next one a tenth of
 * DEVICE_OFFLINE_SECONDS later (1..30 s), finer than cron's minute; the `stately` policy keeps at
 * most one queued, so the cron (which restarts a broken chain) and the at-start run never pile up.
 * Idempotent: each transition is a conditional UPDATE of the device's notified state.
 */
export const deviceHealthJob: JobDefinition<Deps, typeof DEVICE_HEALTH_JOB> = {
  name: DEVICE_HEALTH_JOB,
  options: { policy: 'stately', retryLimit: 2, expireInSeconds: 120 },
  cron: '* * * * *',
  runAtStart: true,
  plan: oneAtATime,
  handler: async (deps) => {
    const offline = await reportOfflineDevices(deps);
    const online = await reportReturnedDevices(deps);
    const health = await reportHealthChanges(deps);
    if (offline || online || health) deps.log.info({ offline, online, health }, 'device health changed');
    await deps.jobs.send(DEVICE_HEALTH_JOB, {}, { startAfter: new Date(Date.now() + sweepEveryMs(deps.config)) });
  },
};
