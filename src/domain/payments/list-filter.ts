import { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client.js';
import { amountSchema } from '../banking/currency.js';
import { cardLast4Schema } from '../validation.js';
import { PAYMENT_STATUSES } from './types.js';

/**
 * The payment list's filters, defined once for both doors (docs/architecture.md, "Filters are
 * defined once"): one schema validates them (REST query parameters and GraphQL arguments, the same
 * names, the same errors), and one table says what each one means, as the SQL condition of REST's
 * one-statement page and as the Prisma `where` of GraphQL's connection, side by side.
 */

const dateTime = z.iso.datetime({ offset: true, message: 'must be an RFC 3339 date-time' }).transform((s) => new Date(s));

/** A yes/no filter: a GraphQL Boolean, or `true`/`false` in a query string. */
const flag = z.union([z.boolean(), z.enum(['true', 'false'])], { message: 'must be true or false' }).transform((v) => v === true || v === 'true');

export const paymentFilterSchema = z.object({
  status: z.enum(PAYMENT_STATUSES, { message: `must be one of ${PAYMENT_STATUSES.join(', ')}` }).optional(),
  orderId: z.string().min(1).max(64).optional(),
  from: dateTime.optional(),
  to: dateTime.optional(),
  reviewRequired: flag.optional(),
  reported: flag.optional(),
  amount: amountSchema.optional(),
  cardLast4: cardLast4Schema.optional(),
  sandbox: flag.optional(),
});

export type PaymentFilter = z.output<typeof paymentFilterSchema>;

type Condition<V> = {
  /** The SQL type of the filter's parameter. */
  type: 'text' | 'timestamptz' | 'boolean' | 'bigint';
  /** The condition over a `payments` row, given the parameter (`$n::type`). */
  sql: (value: string) => string;
  /** The same condition as a Prisma `where`. */
  prisma: (value: V) => Prisma.PaymentWhereInput;
};

const CONDITIONS: { [K in keyof PaymentFilter]-?: Condition<NonNullable<PaymentFilter[K]>> } = {
  status: { type: 'text', sql: (v) => `status = ${v}`, prisma: (status) => ({ status }) },
  orderId: { type: 'text', sql: (v) => `order_id = ${v}`, prisma: (orderId) => ({ orderId }) },
  // Inclusive at both ends.
  from: { type: 'timestamptz', sql: (v) => `created_at >= ${v}`, prisma: (gte) => ({ createdAt: { gte } }) },
  to: { type: 'timestamptz', sql: (v) => `created_at <= ${v}`, prisma: (lte) => ({ createdAt: { lte } }) },
  reviewRequired: { type: 'boolean', sql: (v) => `review_required = ${v}`, prisma: (reviewRequired) => ({ reviewRequired }) },
  // true: the payer reported paying and the payment is not confirmed ("reported paying, nothing came"); false: no report.
  reported: {
    type: 'boolean',
    sql: (v) => `CASE WHEN ${v} THEN payer_reported_paid_at IS NOT NULL AND status <> 'confirmed' ELSE payer_reported_paid_at IS NULL END`,
    prisma: (reported) => (reported ? { payerReportedPaidAt: { not: null }, status: { not: 'confirmed' } } : { payerReportedPaidAt: null }),
  },
  // The final or the requested amount, in rials.
  amount: { type: 'bigint', sql: (v) => `(amount_final = ${v} OR amount_requested = ${v})`, prisma: (a) => ({ OR: [{ amountFinal: a }, { amountRequested: a }] }) },
  // To a card ending in these digits, or from a payer's card ending in them.
  cardLast4: {
    type: 'text',
    sql: (v) => `(payer_card_last4 = ${v} OR EXISTS (SELECT 1 FROM cards c WHERE c.id = payments.card_id AND c.card_number LIKE '%' || ${v}))`,
    prisma: (last4) => ({ OR: [{ card: { cardNumber: { endsWith: last4 } } }, { payerCardLast4: last4 }] }),
  },
  // Live (false) or sandbox (true) payments: the dashboard's two sides never mix.
  sandbox: { type: 'boolean', sql: (v) => `sandbox = ${v}`, prisma: (sandbox) => ({ sandbox }) },
};

const NAMES = Object.keys(CONDITIONS) as (keyof PaymentFilter)[];

/**
 * Every filter as one SQL condition over `payments`, its parameters numbered from `first` in
 * `paymentFilterParams`' order. An absent filter is a NULL parameter that passes every row, so one
 * text serves every combination of filters.
 */
export function paymentFilterSql(first: number): string {
  return NAMES.map((name, i) => {
    const p = `$${first + i}::${CONDITIONS[name].type}`;
    return `(${p} IS NULL OR ${CONDITIONS[name].sql(p)})`;
  }).join('\n  AND ');
}

/** The parameters of `paymentFilterSql`, in its order: NULL for an absent filter. */
export function paymentFilterParams(f: PaymentFilter): (string | boolean | Date | null)[] {
  return NAMES.map((name) => {
    const v = f[name];
    return v === undefined ? null : typeof v === 'bigint' ? v.toString() : v;
  });
}

/** The filter as a Prisma `where` (the caller adds its scope). */
export function paymentFilterWhere(f: PaymentFilter): Prisma.PaymentWhereInput {
  // Each condition is typed by its own filter's value in CONDITIONS; here they are read generically.
  const conditions = CONDITIONS as Record<keyof PaymentFilter, Condition<unknown>>;
  return { AND: NAMES.flatMap((name) => (f[name] === undefined ? [] : [conditions[name].prisma(f[name])])) };
}
