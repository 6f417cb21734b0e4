import type { Actor } from '../domain/auth/actor.js';
import type { Deps } from '../domain/deps.js';
import { normaliseForwarderBody, type Forwarded } from '../domain/devices/forwarder-payloads.js';
import { heartbeat, markSeen } from '../domain/devices/seen.js';
import { writeTelemetry } from '../domain/devices/store/telemetry.js';
import { looseTelemetry } from '../domain/devices/telemetry.js';
import { requireActor } from '../domain/auth/actor.js';
import { receiveBankMessage, receiveBankMessageBatch } from './bank-message-in.js';

/**
 * Every authenticated device request counts as the device being seen (seen.ts); the stamp runs
 * alongside the work, so it adds no wait to an SMS. `sms`: the request posts SMS. A stamp that
 * fails is logged, not answered: the SMS is stored and an error would only make the app resend.
 */
async function seenWhile<T>(deps: Deps, device: Actor, sms: boolean, work: () => Promise<T>): Promise<T> {
  const seen = markSeen(deps, device, { sms }).catch((err: unknown) => deps.log.warn({ err }, 'device seen stamp failed'));
  const [, result] = await Promise.all([seen, work()]);
  return result;
}

function normalised(body: unknown): { input: Forwarded } | { error: unknown } {
  try {
    return { input: normaliseForwarderBody(body) };
  } catch (error) {
    return { error };
  }
}

/**
 * One SMS in our shape or any forwarder app's (forwarder-payloads.ts); a forwarder's batch event is
 * a backfill, a ping a heartbeat, and its other events need nothing (null: the door answers so the
 * app does not retry). A body no app's schema accepts is still the device speaking: seen, then refused.
 */
export async function receiveFromDevice(deps: Deps, device: Actor, body: unknown): Promise<object | null> {
  const read = normalised(body);
  // A ping is a heartbeat with the telemetry it carries (a battery out of range is 400, the device still seen).
  if ('input' in read && read.input.kind === 'ping') {
    const { telemetry } = read.input;
    await heartbeat(deps, device, () => looseTelemetry(telemetry ?? {}));
    return null;
  }
  const sms = 'input' in read && (read.input.kind === 'single' || read.input.kind === 'batch');
  return seenWhile(deps, device, sms, async () => {
    if ('error' in read) throw read.error;
    const { input } = read;
    if (input.kind === 'single') {
      const received = await receiveBankMessage(deps, device, input.message);
      if (input.telemetry) await templateTelemetry(deps, device, input.telemetry);
      return received;
    }
    if (input.kind === 'batch') return receiveBankMessageBatch(deps, device, { messages: input.messages });
    return null;
  });
}

/** A backfill of SMS the phone missed or queued (docs/forwarders.md "5. Any other app, and missed SMS"), the device seen meanwhile. */
export function receiveBackfillFromDevice(deps: Deps, device: Actor, body: unknown) {
  return seenWhile(deps, device, true, () => receiveBankMessageBatch(deps, device, body));
}

/** Telemetry an app's template put beside an SMS: written when it reads, never a reason to refuse the SMS. */
async function templateTelemetry(deps: Deps, device: Actor, raw: Record<string, unknown>): Promise<void> {
  try {
    await writeTelemetry(deps.prisma, requireActor(device, 'device').deviceId, looseTelemetry(raw));
  } catch (err) {
    deps.log.warn({ err }, 'telemetry beside an SMS was not read');
  }
}
