import { bankLines, messageVouchRefusal } from '../../domain/cards/sms-line.js';
import { httpVia } from '../../operations/operation.js';
import { runOperation } from '../../operations/run.js';
import { vouchSmsSender } from '../../operations/vouch-sms-sender.js';
import { builder } from '../builder.js';
import { decided, IDEMPOTENCY_KEY_DESCRIPTION } from '../idempotency.js';

// The bank's SMS line (docs/live-setup.md "3.3 The card"): the known lines per bank for the card
// form, and "this is my bank's line" for a deposit held for its unknown sender.

const BankLineRef = builder.objectRef<{ code: string; name: string; senders: readonly string[] }>('BankLine').implement({
  description: 'A bank of the catalog and the sender ids its SMS are known to come from.',
  fields: (t) => ({
    code: t.exposeString('code', { description: 'The bank code cards use (createCard’s bankCode).' }),
    name: t.exposeString('name', { description: 'The bank’s Persian name.' }),
    senders: t.stringList({ description: 'The sender ids (numbers or names) this bank’s SMS come from, as phones show them; a card’s smsSender adds one.', resolve: (b) => [...b.senders] }),
  }),
});

builder.queryField('banks', (t) =>
  t.field({
    type: [BankLineRef],
    description: 'Public. Every bank of the catalog with its known SMS lines: the card form offers them for smsSender.',
    resolve: () => bankLines(),
  }),
);

builder.prismaObjectField('BankMessage', 'senderVouchable', (t) =>
  t.boolean({
    description:
      'True when this deposit is held only because its sender is unknown while its text reads as the bank of the card it names: vouchSmsSender may make the sender that card’s smsSender.',
    select: { status: true, evidenceProblem: true, simulated: true, direction: true, amount: true, bankCode: true, cardId: true, sender: true },
    // What the message alone says; the card's own checks (active, of the same bank) run in the operation.
    resolve: (m) => m.cardId !== null && messageVouchRefusal(m) === null,
  }),
);

builder.mutationField('vouchSmsSender', (t) =>
  t.prismaField({
    type: 'Card',
    authScopes: { merchant: true },
    description:
      '“This is my bank’s line.” For a deposit held because its sender is unknown (reviewReason unknown_sender) whose text reads as the bank of the card it names: the sender becomes that card’s smsSender, so the bank’s next SMS from it pass; audited (card.sms_sender_vouched). The deposit stays held: attach it separately. The merchant key or an owner. Refused (invalid_state, details.reason): not_unknown_sender, not_a_bank_deposit, sender_not_storable, card_required (the message names no single card: give cardId), card_mismatch, card_inactive.',
    args: {
      bankMessageId: t.arg.id({ required: true, description: 'The held deposit.' }),
      cardId: t.arg.id({ description: 'Only when the message names no single card: the card (of the phone that forwarded it) the line is for.' }),
      idempotencyKey: t.arg.string({ description: IDEMPOTENCY_KEY_DESCRIPTION }),
    },
    resolve: async (query, _root, { bankMessageId, cardId, idempotencyKey }, ctx) => {
      const body = { cardId: cardId == null ? null : String(cardId) };
      const id = await decided(idempotencyKey, 'vouchSmsSender', String(bankMessageId), body, (c: { id: string }) => c.id, (idem) =>
        runOperation(ctx.deps, vouchSmsSender, ctx.actor, { id: String(bankMessageId), body }, { via: httpVia(ctx.actor), idem }),
      );
      return ctx.deps.prisma.card.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);
