import { z } from 'zod';
import { AppError, isAppError, type FieldError } from '../../errors.js';
import { requireActor, type Actor } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import { effectiveTime, parseSms } from '../sms/registry.js';
import { parseInput } from '../validation.js';
import { messageInput, processBankMessage, storeBankMessage, type MessageStatus } from './ingest.js';

export const BATCH_MAX = 500;

export const batchInput = z.object({
  messages: z.array(messageInput).min(1, `must hold 1..${BATCH_MAX} messages`).max(BATCH_MAX, `must hold 1..${BATCH_MAX} messages`),
});

/** `messages.3.body` → `messages[3].body`, the way a client indexes its array. */
function indexFields(err: unknown): unknown {
  if (!isAppError(err) || err.code !== 'invalid_request' || !Array.isArray(err.details.fields)) return err;
  const fields = (err.details.fields as FieldError[]).map((f) => ({ ...f, field: f.field.replace(/\.(\d+)(?=\.|$)/g, '[$1]') }));
  return AppError.invalid(fields);
}

/**
 * Backfill: SMS a phone missed or queued while offline. All are checked first (a bad one refuses
 * the batch, naming its index), each is stored raw in the order sent (never lost), then the new
 * ones are processed one at a time, oldest bank time first (receivedAt when the text has none), so
 * matching and balance chains see them in the order the bank sent them. Answers in the order sent.
 */
export async function receiveBankMessageBatch(deps: Deps, actor: Actor, input: unknown): Promise<{ items: { id: string; status: MessageStatus }[] }> {
  const device = requireActor(actor, 'device');
  let checked: z.output<typeof batchInput>;
  try {
    checked = parseInput(batchInput, input);
  } catch (err) {
    throw indexFields(err);
  }
  const stored: { id: string; duplicate: boolean; at: number; index: number }[] = [];
  for (const [index, message] of checked.messages.entries()) {
    const { parsed } = parseSms(message.sender, message.body.text, message.receivedAt);
    const at = effectiveTime(parsed, message.receivedAt).getTime();
    stored.push({ ...(await storeBankMessage(deps, device, message)), at, index });
  }
  const statuses = new Map<string, MessageStatus>();
  const fresh = stored.filter((s) => !s.duplicate).sort((a, b) => a.at - b.at || a.index - b.index);
  for (const s of fresh) statuses.set(s.id, await processBankMessage(deps, s.id));
  return { items: stored.map((s) => ({ id: s.id, status: s.duplicate ? 'duplicate' : (statuses.get(s.id) ?? 'received') })) };
}
