import type { Deps } from '../deps.js';

/**
 * The rescue job's retries (10, backoff from 5 s) span about 85 minutes; a message whose
 * processing still fails after 40 minutes has had most of them, and each later one would fail the
 * same way. Past that age the job stops and marks the message instead of leaving it `received`.
 */
export const GIVE_UP_AFTER_MS = 40 * 60_000;

/**
 * Marks a message that processing keeps failing on as `unparsed`, with the reason, when it is old
 * enough that retrying is pointless. Returns whether it gave up (then the job must not retry).
 */
export async function giveUpOnMessage(deps: Deps, messageId: string, err: unknown, now = new Date()): Promise<boolean> {
  const message = await deps.prisma.bankMessage.findUnique({ where: { id: messageId }, select: { status: true, createdAt: true } });
  if (!message || message.status !== 'received') return true;
  if (now.getTime() - message.createdAt.getTime() < GIVE_UP_AFTER_MS) return false;
  const code = typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : 'error';
  deps.log.error({ err, messageId }, 'bank message processing failed after its retries; marked unparsed');
  await deps.prisma.bankMessage.updateMany({
    where: { id: messageId, status: 'received' },
    data: { status: 'unparsed', statusReason: `Processing failed after repeated attempts (${code.slice(0, 40)}); kept for review.` },
  });
  return true;
}
