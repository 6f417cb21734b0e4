import { z } from 'zod';
import { AppError } from '../../errors.js';
import { recordUpdate, writeAudited, type AuditInput } from '../audit/audit.js';
import { createdValues } from '../audit/changes.js';
import { requireActor, type Actor } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import { findOwnedDevice } from '../devices/devices.js';
import { findOwnedProject } from '../projects/projects.js';
import { latinDigits, parseInput, rialsSchema, uuidSchema } from '../validation.js';
import { retryOnConflict } from '../../db/errors.js';
import { shebaSchema } from '../banking/sheba.js';
import { lockCardChain } from '../bank-messages/store/evidence.js';
import { senderForms } from '../sms/sender-match.js';
import { banks } from './banks.js';
import { moveCardHolds } from './move-holds.js';

const digitsOnly = (len: RegExp, message: string) =>
  z
    .string()
    .transform((s) => latinDigits(s).replace(/[\s-]/g, ''))
    .refine((s) => len.test(s), message);

// Digits (any script) with spaces or dashes between them and an optional leading `+`.
const PHONE_AS_TYPED = /^\+?[0-9\u06f0-\u06f9\u0660-\u0669](?:[\s-]?[0-9\u06f0-\u06f9\u0660-\u0669])*$/;

const cap = z
  .union([z.number().int().positive(), z.string().transform(latinDigits).pipe(z.string().regex(/^[0-9]{1,16}$/, 'must be a whole number of rials'))])
  .transform((v) => BigInt(v))
  .refine((v) => v > 0n, 'must be greater than 0');

const cardFields = {
  deviceId: uuidSchema.nullable(),
  bankCode: z.enum(Object.keys(banks) as [string, ...string[]], { message: `must be one of: ${Object.keys(banks).join(', ')}` }),
  cardNumber: digitsOnly(/^[0-9]{16}$/, 'must be 16 digits'),
  accountNumber: z
    .string()
    .transform((s) => latinDigits(s).trim())
    .refine((s) => /^[0-9.\-]{4,40}$/.test(s), 'must be 4..40 digits, dots or dashes')
    .nullable(),
  holderName: z.string().trim().min(1).max(100),
  smsSender: z
    .string()
    .trim()
    .min(1, 'must be 1..40 characters')
    .max(40, 'must be 1..40 characters')
    // A number as the merchant types it (`+98 300 089`, Persian digits) is written as phones report
    // it; letters stay exactly as typed, since the sender rule compares them exactly (docs/security.md).
    .transform((s) => (PHONE_AS_TYPED.test(s) ? latinDigits(s).replace(/[\s-]/g, '') : s))
    .refine((s) => senderForms(s).size > 0, 'must be the sender as the bank’s SMS shows it, with no hidden or look-alike characters')
    .nullable(),
  dailyAmountCap: cap.nullable(),
  dailyCountCap: z.number().int().positive().nullable(),
  // The Jalali month's caps (Tehran time), beside the day's.
  monthlyAmountCap: cap.nullable(),
  monthlyCountCap: z.number().int().positive().nullable(),
  sheba: shebaSchema.nullable(),
  /**
   * The balance the bank's app shows now: the chain's reference as of now (docs/security.md,
   * "Bank SMS"). On a card with a chain it re-anchors it; null returns the card to trust on first use.
   */
  openingBalance: rialsSchema.nullable(),
};

const createCardInput = z.object({
  projectId: uuidSchema,
  ...cardFields,
  deviceId: cardFields.deviceId.optional(),
  accountNumber: cardFields.accountNumber.optional(),
  smsSender: cardFields.smsSender.optional(),
  dailyAmountCap: cardFields.dailyAmountCap.optional(),
  dailyCountCap: cardFields.dailyCountCap.optional(),
  monthlyAmountCap: cardFields.monthlyAmountCap.optional(),
  monthlyCountCap: cardFields.monthlyCountCap.optional(),
  sheba: cardFields.sheba.optional(),
  openingBalance: cardFields.openingBalance.optional(),
});

const updateCardInput = z.object({ ...cardFields, active: z.boolean() }).partial().strict();

/** The stored columns of an opening balance given now (`openingBalanceAt` places it in the bank's order). */
const anchored = (openingBalance: bigint | null | undefined) =>
  openingBalance === undefined ? {} : { openingBalance, openingBalanceAt: openingBalance === null ? null : new Date() };

/** A new card's audit event: the fields it was given (card and account numbers masked). */
const cardCreated = (card: { id: string; projectId: string }): AuditInput => ({
  action: 'card.created',
  subjectType: 'card',
  subjectId: card.id,
  projectId: card.projectId,
  changes: createdValues(card, Object.keys(cardFields)),
});

/** Merchant: a card to receive transfers. Live cards need a device to read their bank SMS. */
export async function createCard(deps: Deps, actor: Actor, input: unknown) {
  const merchant = requireActor(actor, 'merchant');
  const data = parseInput(createCardInput, input);
  const project = await findOwnedProject(deps.prisma, merchant.merchantId, data.projectId);
  if (data.deviceId) await findOwnedDevice(deps.prisma, merchant.merchantId, data.deviceId);
  else if (!project.sandbox) throw AppError.invalid([{ field: 'deviceId', message: 'is required for a live project' }]);
  return writeAudited(deps.prisma, actor, (tx) => tx.card.create({
    data: {
      projectId: project.id,
      merchantId: merchant.merchantId,
      deviceId: data.deviceId ?? null,
      bankCode: data.bankCode,
      cardNumber: data.cardNumber,
      accountNumber: data.accountNumber ?? null,
      holderName: data.holderName,
      smsSender: data.smsSender ?? null,
      dailyAmountCap: data.dailyAmountCap ?? null,
      dailyCountCap: data.dailyCountCap ?? null,
      monthlyAmountCap: data.monthlyAmountCap ?? null,
      monthlyCountCap: data.monthlyCountCap ?? null,
      sheba: data.sheba ?? null,
      ...anchored(data.openingBalance),
    },
  }), cardCreated);
}

export async function updateCard(deps: Deps, actor: Actor, cardId: string, input: unknown) {
  const merchant = requireActor(actor, 'merchant');
  const data = parseInput(updateCardInput, input);
  if (!uuidSchema.safeParse(cardId).success) throw AppError.notFound('Card');
  const card = await deps.prisma.card.findFirst({ where: { id: cardId, merchantId: merchant.merchantId }, include: { project: true } });
  if (!card) throw AppError.notFound('Card');
  if (data.deviceId) await findOwnedDevice(deps.prisma, merchant.merchantId, data.deviceId);
  if (data.deviceId === null && !card.project.sandbox) {
    throw AppError.invalid([{ field: 'deviceId', message: 'is required for a live project' }]);
  }
  // Deadlocks with concurrent creates (which lock scopes in card order) are broken by Postgres and redone.
  return retryOnConflict(() =>
    deps.prisma.$transaction(async (tx) => {
      // A new reference waits for the message being checked against the chain, and the next one sees it.
      if (data.openingBalance !== undefined) await lockCardChain(tx, card.id);
      if (data.deviceId !== undefined) await moveCardHolds(tx, card.id, data.deviceId);
      const { openingBalance, ...fields } = data;
      const updated = await tx.card.update({ where: { id: card.id }, data: { ...fields, ...anchored(openingBalance) } });
      const changed = [...Object.keys(data), ...(openingBalance === undefined ? [] : ['openingBalanceAt'])];
      await recordUpdate(tx, actor, { action: 'card.updated', subjectType: 'card', subjectId: card.id, projectId: card.projectId, before: card, after: updated, fields: changed });
      return updated;
    }),
  );
}
