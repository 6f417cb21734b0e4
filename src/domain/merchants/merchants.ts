import { z } from 'zod';
import { AppError } from '../../errors.js';
import { recordAudit, recordUpdate } from '../audit/audit.js';
import { createdValues } from '../audit/changes.js';
import { operatorActor, requireActor, type Actor } from '../auth/actor.js';
import { forgetCachedCredentials } from '../auth/auth-cache.js';
import { credentialPrefix, issueCredential } from '../auth/credentials.js';
import { recordLedgerEntry } from '../credit/ledger.js';
import type { Deps } from '../deps.js';
import { parseInput, rialsSchema, uuidSchema } from '../validation.js';
import type { Tx } from '../../db/prisma.js';

const createMerchantInput = z.object({
  name: z.string().trim().min(1).max(200),
  credit: rialsSchema.optional(),
  demo: z.boolean().optional(),
});

/** Operator: a merchant, its first key (shown once) and its opening credit, in one transaction. */
export async function createMerchant(deps: Deps, actor: Actor, input: z.input<typeof createMerchantInput>) {
  requireActor(actor, 'operator');
  const data = parseInput(createMerchantInput, input);
  return deps.prisma.$transaction(async (tx) => {
    const merchant = await tx.merchant.create({ data: { name: data.name, demo: data.demo ?? false } });
    if (data.credit && data.credit > 0n) {
      await recordLedgerEntry(tx, { merchantId: merchant.id, kind: 'topup', amount: data.credit, note: 'opening credit' });
    }
    const created = await tx.merchant.findUniqueOrThrow({ where: { id: merchant.id }, include: WITH_CREDIT });
    await recordAudit(tx, actor, {
      action: 'merchant.created',
      subjectType: 'merchant',
      subjectId: merchant.id,
      projectId: null,
      merchantId: merchant.id,
      changes: createdValues(created, ['name', 'demo', 'creditBalance']),
    });
    const merchantKey = await issueMerchantKey(tx, merchant.id, actor);
    return { merchant: created, merchantKey };
  });
}

/** A merchant key, shown once, recorded as the actor's (the demo re-issue, which calls it without one, is the operator's). */
export async function issueMerchantKey(tx: Tx, merchantId: string, actor: Actor = operatorActor): Promise<string> {
  const issued = issueCredential(credentialPrefix.merchant);
  const key = await tx.merchantKey.create({ data: { merchantId, keyHash: issued.hash, keyPrefix: issued.prefix } });
  await recordAudit(tx, actor, {
    action: 'merchant_key.created',
    subjectType: 'merchant_key',
    subjectId: key.id,
    projectId: null,
    merchantId,
    changes: createdValues(key, ['keyPrefix']),
  });
  return issued.secret;
}

const creditInput = z.object({ merchantId: uuidSchema, amount: rialsSchema, note: z.string().max(300).optional() });

/** Operator: adds credit; the ledger entry and the balance move together. */
export async function addMerchantCredit(deps: Deps, actor: Actor, input: z.input<typeof creditInput>) {
  requireActor(actor, 'operator');
  const data = parseInput(creditInput, input);
  if (data.amount <= 0n) throw AppError.invalid([{ field: 'amount', message: 'must be greater than 0' }]);
  return deps.prisma.$transaction(async (tx) => {
    await findMerchant(tx, data.merchantId);
    const entry = await recordLedgerEntry(tx, { merchantId: data.merchantId, kind: 'topup', amount: data.amount, note: data.note ?? null });
    // The entry's balance was taken under the merchant's row lock: `from` is exact, whatever ran beside it.
    await recordUpdate(tx, actor, {
      action: 'merchant.credit_added',
      subjectType: 'merchant',
      subjectId: data.merchantId,
      projectId: null,
      merchantId: data.merchantId,
      note: data.note ?? null,
      before: { creditBalance: entry.balanceAfter - data.amount },
      after: { creditBalance: entry.balanceAfter },
      fields: ['creditBalance'],
    });
    return tx.merchant.findUniqueOrThrow({ where: { id: data.merchantId }, include: WITH_CREDIT });
  });
}

/** Operator: a deactivated merchant's keys, devices and projects all answer 403 merchant_inactive. */
export async function setMerchantActive(deps: Deps, actor: Actor, merchantId: string, active: boolean) {
  requireActor(actor, 'operator');
  parseInput(uuidSchema, merchantId);
  return deps.prisma.$transaction(async (tx) => {
    const before = await findMerchant(tx, merchantId);
    const after = await tx.merchant.update({ where: { id: merchantId }, data: { active }, include: WITH_CREDIT });
    const action = active ? 'merchant.activated' : 'merchant.deactivated';
    await recordUpdate(tx, actor, { action, subjectType: 'merchant', subjectId: merchantId, projectId: null, merchantId, before, after, fields: ['active'] });
    return after;
  });
}

const updateMerchantInput = z.object({ requireTotp: z.boolean().nullish() });

/**
 * The merchant key or an owner: the merchant's own settings. `requireTotp`: every dashboard user
 * needs two-factor to decide, manage or change users (src/domain/auth/roles.ts); an owner turning
 * it on by session must have it on already, so as not to shut themselves out of this very switch.
 */
export async function updateMerchant(deps: Deps, actor: Actor, input: unknown) {
  const caller = requireActor(actor, 'merchant');
  const data = parseInput(updateMerchantInput, input ?? {});
  const updated = await deps.prisma.$transaction(async (tx) => {
    const before = await tx.merchant.findUniqueOrThrow({ where: { id: caller.merchantId } });
    if (data.requireTotp === undefined || data.requireTotp === null || data.requireTotp === before.requireTotp) return before;
    if (data.requireTotp && caller.kind === 'user') {
      const me = await tx.user.findUniqueOrThrow({ where: { id: caller.userId }, select: { totpEnabledAt: true } });
      if (!me.totpEnabledAt) {
        throw new AppError('invalid_state', 'Turn on your own two-factor sign-in (enableTotp, confirmTotp) before requiring it of everyone.', { reason: 'totp_not_enabled' });
      }
    }
    const after = await tx.merchant.update({ where: { id: caller.merchantId }, data: { requireTotp: data.requireTotp } });
    await recordUpdate(tx, actor, { action: 'merchant.updated', subjectType: 'merchant', subjectId: after.id, projectId: null, merchantId: after.id, before, after, fields: ['requireTotp'] });
    return after;
  });
  forgetCachedCredentials(deps);
  return updated;
}

async function findMerchant(db: Pick<Tx, 'merchant'>, merchantId: string) {
  const merchant = await db.merchant.findUnique({ where: { id: merchantId } });
  if (!merchant) throw AppError.notFound('Merchant');
  return merchant;
}

/** What a merchant read needs for `creditOf`: the reserved fees sit on its credit stripes. */
export const WITH_CREDIT = { creditStripes: { select: { reserved: true } } } as const;

export function creditOf(merchant: { creditBalance: bigint; creditStripes: { reserved: bigint }[] }) {
  const reserved = merchant.creditStripes.reduce((sum, s) => sum + s.reserved, 0n);
  return { balance: merchant.creditBalance, reserved, available: merchant.creditBalance - reserved };
}
