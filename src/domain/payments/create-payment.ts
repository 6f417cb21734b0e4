import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { retryOnConflict } from '../../db/errors.js';
import type { Tx } from '../../db/prisma.js';
import { AppError } from '../../errors.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { requireActor, type Actor } from '../auth/actor.js';
import { newPaymentToken } from '../auth/credentials.js';
import { allocateCardAndCode } from '../cards/selection.js';
import { availableCredit, computeFee, reserveFee } from '../credit/fees.js';
import type { Deps } from '../deps.js';
import { checkCallbackUrl } from '../projects/callback-url.js';
import type { ProjectRow } from '../projects/projects.js';
import { amountSchema, httpsUrlSchema, parseInput, phoneSchema } from '../validation.js';
import { checkoutUrl, paymentRecord } from './record.js';
import type { PaymentRow } from './types.js';

const metadataValue = z.union([z.string().max(500, 'string values must be at most 500 characters'), z.number(), z.boolean(), z.null()]);

export const metadataSchema = z
  .record(z.string().min(1).max(40, 'keys must be at most 40 characters'), metadataValue)
  .refine((m) => Object.keys(m).length <= 20, 'must have at most 20 keys');

export const createPaymentSchema = z.object({
  amount: amountSchema,
  callbackUrl: z.string({ error: 'is required' }).pipe(httpsUrlSchema),
  orderId: z.string().min(1, 'must be 1..64 characters').max(64, 'must be 1..64 characters').nullish(),
  description: z.string().max(300, 'must be at most 300 characters').nullish(),
  payerPhone: phoneSchema.nullish(),
  metadata: metadataSchema.nullish(),
});

export type CreatePaymentInput = z.input<typeof createPaymentSchema>;

export type Idempotency = { key: string; requestHash: string };

export type CreatePaymentResult =
  | { replayed: false; payment: PaymentRow; responseBody: string }
  | { replayed: true; responseBody: string };

const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** Extra attributes a caller inside the domain may set (payment links). */
export type CreatePaymentOptions = { idempotency?: Idempotency; linkId?: string };

/**
 * Creates a payment: validates (400), checks the callback host (422), the credit (402), picks a
 * card and a free unique code (503 with every reason), reserves the fee, holds the amount and
 * enqueues its expiry, in one transaction. With an idempotency key, a repeat of a stored success
 * replays its response byte for byte.
 */
export async function createPayment(deps: Deps, actor: Actor, input: unknown, opts: CreatePaymentOptions = {}): Promise<CreatePaymentResult> {
  const caller = requireActor(actor, 'project');
  const data = parseInput(createPaymentSchema, input);
  const project = await deps.prisma.project.findUniqueOrThrow({ where: { id: caller.projectId } });
  checkCallbackUrl(project, data.callbackUrl);
  return createPaymentFor(deps, project, data, opts);
}

export type PaymentData = Omit<z.output<typeof createPaymentSchema>, 'callbackUrl'> & { callbackUrl: string | null };

/**
 * The creating transaction, for input already validated against its project (the merchant's API
 * or a public payment link), retried when Postgres breaks a lock-order deadlock.
 */
export async function createPaymentFor(deps: Deps, project: ProjectRow, data: PaymentData, opts: CreatePaymentOptions = {}): Promise<CreatePaymentResult> {
  // Two creates can lock two match scopes in opposite orders; Postgres breaks the deadlock and one is redone.
  return retryOnConflict(() => deps.prisma.$transaction((tx) => createInTransaction(deps, tx, project, data, opts)));
}

async function createInTransaction(
  deps: Deps,
  tx: Tx,
  project: ProjectRow,
  data: PaymentData,
  opts: CreatePaymentOptions,
): Promise<CreatePaymentResult> {
  const now = new Date();
  if (opts.idempotency) {
    const replay = await claimIdempotencyKey(tx, project.id, opts.idempotency, now);
    if (replay !== null) return { replayed: true, responseBody: replay };
  }

  if (!project.sandbox) {
    const cheapest = computeFee(data.amount + 10n, project);
    if ((await availableCredit(tx, project.merchantId)) < cheapest) throw new AppError('merchant_credit_exhausted');
  }

  // The expiry job is enqueued before the scope lock is taken (its payment id is chosen here), so
  // the locked part of the transaction stays short; a rollback removes both.
  const paymentId = randomUUID();
  const expiresAfter = project.paymentTimeLimitSeconds * 1000;
  await deps.jobs.send('expire-payment', { paymentId }, { tx, startAfter: new Date(now.getTime() + expiresAfter) });

  const allocation = await allocateCardAndCode(tx, project, data.amount, now);
  if ('reasons' in allocation) {
    throw new AppError('no_card_available', `No card can take this payment now (${allocation.reasons.join(', ')}).`, { reasons: allocation.reasons });
  }

  const fee = project.sandbox ? 0n : computeFee(allocation.amountFinal, project);
  if (!project.sandbox) await reserveFee(tx, project.merchantId, fee);

  // Creation time is taken after the scope lock, so payments of one scope are stamped in the order they commit.
  const createdAt = new Date();
  const expiresAt = new Date(createdAt.getTime() + expiresAfter);
  const lateUntil = new Date(expiresAt.getTime() + project.lateWindowSeconds * 1000);
  const payment = await tx.payment.create({
    data: {
      id: paymentId,
      projectId: project.id,
      merchantId: project.merchantId,
      cardId: allocation.cardId,
      linkId: opts.linkId ?? null,
      amountRequested: data.amount,
      code: allocation.code,
      amountFinal: allocation.amountFinal,
      amountMode: project.amountMode,
      orderId: data.orderId ?? null,
      description: data.description ?? null,
      callbackUrl: data.callbackUrl,
      token: newPaymentToken(),
      expiresAt,
      lateUntil,
      payerPhone: data.payerPhone ?? null,
      metadata: (data.metadata ?? undefined) as Prisma.InputJsonObject | undefined,
      sandbox: project.sandbox,
      feeAmount: fee,
      feeState: project.sandbox ? 'none' : 'reserved',
      createdAt,
      updatedAt: createdAt,
      hold: { create: { scope: allocation.scope, amount: allocation.amountFinal, heldUntil: lateUntil } },
    },
  });
  await tx.card.update({ where: { id: allocation.cardId }, data: { lastUsedAt: createdAt } });

  const responseBody = JSON.stringify({ ...paymentRecord(payment), checkoutUrl: checkoutUrl(deps.config.publicBaseUrl, payment.token) });
  if (opts.idempotency) {
    await tx.idempotencyKey.create({
      data: {
        projectId: project.id,
        key: opts.idempotency.key,
        requestHash: opts.idempotency.requestHash,
        responseStatus: 201,
        responseBody,
        expiresAt: new Date(createdAt.getTime() + IDEMPOTENCY_TTL_MS),
      },
    });
  }
  return { replayed: false, payment, responseBody };
}

/**
 * Returns the stored response to replay, or null to go ahead. A second request with the key while
 * the first is still running cannot take the key's lock and is refused (409), never run twice.
 */
async function claimIdempotencyKey(tx: Tx, projectId: string, idem: Idempotency, now: Date): Promise<string | null> {
  const [lock] = await tx.$queryRaw<{ locked: boolean }[]>`
    SELECT pg_try_advisory_xact_lock(hashtextextended(${`${projectId}:${idem.key}`}, 1)) AS locked`;
  if (!lock?.locked) {
    throw new AppError('idempotency_conflict', 'A request with this Idempotency-Key is still being processed.');
  }
  const existing = await tx.idempotencyKey.findUnique({ where: { projectId_key: { projectId, key: idem.key } } });
  if (!existing) return null;
  if (existing.expiresAt.getTime() <= now.getTime()) {
    await tx.idempotencyKey.delete({ where: { projectId_key: { projectId, key: idem.key } } });
    return null;
  }
  if (existing.requestHash !== idem.requestHash) {
    throw new AppError('idempotency_conflict', 'This Idempotency-Key was used with a different request body.');
  }
  return existing.responseBody;
}
