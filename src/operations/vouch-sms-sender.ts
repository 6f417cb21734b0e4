import { z } from 'zod';
import type { Card } from '../generated/prisma/client.js';
import { loadVouchTarget, setCardSmsLine, vouchRefusal, type VouchTarget } from '../domain/cards/sms-line.js';
import { uuidSchema } from '../domain/validation.js';
import type { Operation } from './operation.js';

const input = z.object({ cardId: uuidSchema.nullish() }).strict();

/**
 * "This is my bank's line": the sender of a deposit held for `unknown_sender`, whose text reads as
 * its card's bank, becomes that card's `smsSender` (src/domain/cards/sms-line.ts). Management: the
 * merchant key or an owner. The deposit stays held; attaching it is a decision of its own.
 */
export const vouchSmsSender: Operation<z.output<typeof input>, VouchTarget, Card> = {
  name: 'vouch for a bank SMS line',
  who: 'decider',
  input,
  emits: [],
  load: (tx, { actor, id, input }) => loadVouchTarget(tx, actor, id, input.cardId ?? null),
  check: (target, { cardId }) => vouchRefusal(target, cardId ?? null),
  async write(tx, { message, card }) {
    const updated = await setCardSmsLine(tx, card!, message.sender);
    return {
      result: updated,
      audit: [
        {
          action: 'card.sms_sender_vouched',
          subjectType: 'card',
          subjectId: card!.id,
          projectId: card!.projectId,
          merchantId: card!.merchantId,
          note: `from held bank message ${message.id}`,
          changes: { smsSender: { from: card!.smsSender, to: message.sender } },
        },
      ],
    };
  },
};
