import { z } from 'zod';
import { retryOnConflict } from '../../db/errors.js';
import { inSentOrder } from '../../ordered-json.js';
import { createPaymentRow, newPaymentId } from './store/create.js';
import { inTransaction, type Queryable } from '../../db/statement.js';
import { requireActor, type Actor } from '../auth/actor.js';
import { newPaymentToken } from '../auth/credentials.js';
import { allocationError } from '../cards/selection.js';
import type { Deps } from '../deps.js';
import { deviceOnlineMs } from '../devices/health.js';
import { admitLinkClient, recordLinkClient, type LinkClient } from '../links/client-cap.js';
import { checkCallbackUrl } from '../projects/callback-url.js';
import { checkAmountRange, currencySchema, toRials, wholeAmountSchema } from '../banking/currency.js';
import { httpsUrlSchema, parseInput, phoneSchema } from '../validation.js';
import { keyScope, underKey, type Answer, type Idempotent } from './idempotency.js';
import type { PaymentRow } from './types.js';

const metadataValue = z.union([z.string().max(500, 'string values must be at most 500 characters'), z.number(), z.boolean(), z.null()]);

export const metadataSchema = z
  .record(z.string().min(1).max(40, 'keys must be at most 40 characters'), metadataValue)
  .refine((m) => Object.keys(m).length <= 20, 'must have at most 20 keys');

/**
 * `amount` is in `currency` (IRR by default, IRT = toman × 10); the range rule applies to the rials.
 * The output's `amount` is rials; `currency` stays as the caller chose it. Strict: a field the
 * service silently ignored (a misspelt `currency`) is how a shop charges a tenth of the price, so an
 * unknown one is refused by name.
 */
export const createPaymentSchema = z.strictObject({
  amount: wholeAmountSchema,
  currency: currencySchema.nullish().transform((c) => c ?? 'IRR'),
  callbackUrl: z.string({ error: 'is required' }).pipe(httpsUrlSchema),
  orderId: z.string().min(1, 'must be 1..64 characters').max(64, 'must be 1..64 characters').nullish(),
  description: z.string().max(300, 'must be at most 300 characters').nullish(),
  payerPhone: phoneSchema.nullish(),
  metadata: metadataSchema.nullish(),
})
  // Also when another field is bad, so that every bad field is named at once.
  .superRefine(checkAmountRange, { when: () => true })
  .transform(({ amount, currency, callbackUrl, orderId, description, payerPhone, metadata }) => ({
    amount: toRials(amount, currency),
    currency,
    callbackUrl,
    orderId,
    description,
    payerPhone,
    metadata,
  }));

export type CreatePaymentInput = z.input<typeof createPaymentSchema>;

/**
 * Extra attributes a caller inside the domain may set. `link`: a payment started from a payment
 * link by the client at that address, admitted by the link's per-client cap in the same transaction.
 */
export type CreatePaymentOptions = {
  link?: LinkClient;
  /** Written in the create's transaction, after the payment row (a fee-credit top-up's own row: src/domain/credit/topups.ts). */
  afterInsert?: (db: Queryable, payment: PaymentRow) => Promise<void>;
};

/**
 * An idempotent create (REST `Idempotency-Key`): the door's rendering of the new payment is stored
 * with the key in the creating transaction, and a repeat answers that stored response.
 */
export type IdempotentCreate = Idempotent<PaymentRow>;

/** A create's key and the key space it is in (the project's, or a link's payer's). */
type KeyedCreate = { scope: string; idem: IdempotentCreate };

/** The callback's shape (400 on `callbackUrl`) and its host, checked against the project in the create call (422). */
function callbackHost(url: string): string {
  checkCallbackUrl({ allowedCallbackHosts: [] }, url);
  return new URL(url).hostname.toLowerCase();
}

/**
 * Creates a payment: validates (400), then one call to the `create_payment` SQL function checks
 * the callback host (422) and the credit (402), picks a card and a free unique code (503 with every
 * reason), reserves the fee and holds the amount, as one statement.
 */
export async function createPayment(deps: Deps, actor: Actor, input: unknown): Promise<PaymentRow> {
  const caller = requireActor(actor, 'project');
  const data = parseCreate(input);
  return create(deps, caller.projectId, data, callbackHost(data.callbackUrl), {}, null).then((r) => r.payment!);
}

/**
 * The same create under an idempotency key: the response the door rendered for the first success
 * (byte for byte), whether this call created the payment or repeats an earlier one.
 */
export async function createPaymentIdempotently(deps: Deps, actor: Actor, input: unknown, idempotency: IdempotentCreate): Promise<Answer> {
  const caller = requireActor(actor, 'project');
  const data = parseCreate(input);
  const result = await create(deps, caller.projectId, data, callbackHost(data.callbackUrl), {}, { scope: keyScope(caller), idem: idempotency });
  return result.answer!;
}

/**
 * The create's input checked; its metadata in the key order the door read it in (zod's record is a
 * new plain object, which lists integer-like keys first: src/ordered-json.ts).
 */
function parseCreate(input: unknown) {
  const data = parseInput(createPaymentSchema, input);
  const sent = (input as { metadata?: unknown }).metadata;
  return data.metadata ? { ...data, metadata: inSentOrder(data.metadata, sent) } : data;
}

export type PaymentData = Omit<z.output<typeof createPaymentSchema>, 'callbackUrl'> & { callbackUrl: string | null };

/**
 * For input already validated against its project (a public payment link checked its callback).
 * With a key (in `keyed.scope`), the door's answer instead of the row.
 */
export async function createPaymentFor(deps: Deps, project: { id: string }, data: PaymentData, opts?: CreatePaymentOptions): Promise<PaymentRow>;
export async function createPaymentFor(deps: Deps, project: { id: string }, data: PaymentData, opts: CreatePaymentOptions, keyed: KeyedCreate | null): Promise<PaymentRow | Answer>;
export async function createPaymentFor(deps: Deps, project: { id: string }, data: PaymentData, opts: CreatePaymentOptions = {}, keyed: KeyedCreate | null = null): Promise<PaymentRow | Answer> {
  const result = await create(deps, project.id, data, null, opts, keyed);
  return result.answer ?? result.payment!;
}

/** The new payment, or with a key the door's answer (this create's, or the first one's replayed). */
type Created = { payment: PaymentRow; answer: null } | { payment: null; answer: Answer };

async function create(deps: Deps, projectId: string, data: PaymentData, host: string | null, opts: CreatePaymentOptions, keyed: KeyedCreate | null): Promise<Created> {
  // Two creates can lock in opposite orders (Postgres breaks the deadlock), or two creates on two
  // cards of one phone can draw one amount (the unique index over live holds refuses the second):
  // either is redone from the start, drawing again.
  return retryOnConflict(async () => {
    try {
      const { link, afterInsert } = opts;
      if (!keyed && !link && !afterInsert) return { payment: await insert(deps, deps.pool, projectId, data, host, null), answer: null };
      return await inTransaction(deps.pool, async (client): Promise<Created> => {
        const made = async () => {
          if (link) await admitLinkClient(client, link);
          const payment = await insert(deps, client, projectId, data, host, link?.linkId ?? null);
          if (afterInsert) await afterInsert(client, payment);
          return link ? recordLinkClient(client, payment, link) : payment;
        };
        if (!keyed) return { payment: await made(), answer: null };
        return { payment: null, answer: await underKey(client, keyed.scope, keyed.idem, made) };
      });
    } catch (err) {
      throw allocationError(err, host) ?? err;
    }
  }, 8, { holdClashes: true });
}

function insert(deps: Deps, db: Queryable, projectId: string, data: PaymentData, host: string | null, linkId: string | null): Promise<PaymentRow> {
  return createPaymentRow(db, {
    paymentId: newPaymentId(),
    projectId,
    linkId,
    amount: data.amount,
    currency: data.currency,
    callbackUrl: data.callbackUrl,
    callbackHost: host,
    orderId: data.orderId ?? null,
    description: data.description ?? null,
    payerPhone: data.payerPhone ?? null,
    metadata: data.metadata ?? null,
    token: newPaymentToken(),
    onlineMs: deviceOnlineMs(deps.config),
  });
}
