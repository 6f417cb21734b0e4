import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';

export type Shop = { merchantId: string; projectId: string; cardId: string; sandbox: boolean };

export type PaymentSeed = {
  status: 'pending' | 'confirmed' | 'expired' | 'canceled' | 'rejected';
  createdAt: Date;
  amountRequested?: number;
  code?: number;
  /** Confirmed only: what the deposit brought (default amountFinal). */
  amountReceived?: number;
  /** Live only: the fee, debited when confirmed. */
  fee?: number;
  refunded?: number;
  review?: boolean;
  orderId?: string | null;
  payerPhone?: string | null;
  currency?: 'IRR' | 'IRT';
};

/**
 * A payment row in any state at any creation time, straight into the table (reports read what is
 * stored; how a payment got there is the payments tests' business). It satisfies the table's checks.
 */
export async function insertPayment(db: pg.Client, shop: Shop, seed: PaymentSeed): Promise<string> {
  const amountRequested = seed.amountRequested ?? 100_000;
  const code = seed.code ?? 120;
  const amountFinal = amountRequested + code;
  const created = seed.createdAt.getTime();
  const confirmed = seed.status === 'confirmed';
  const fee = shop.sandbox ? 0 : (seed.fee ?? 1_000);
  const feeState = shop.sandbox ? 'none' : confirmed ? 'debited' : seed.status === 'pending' || seed.status === 'expired' ? 'reserved' : 'released';
  const row: Record<string, unknown> = {
    id: randomUUID(),
    project_id: shop.projectId,
    merchant_id: shop.merchantId,
    card_id: shop.cardId,
    status: seed.status,
    amount_requested: amountRequested,
    code,
    amount_final: amountFinal,
    amount_mode: 'unique_code',
    currency: seed.currency ?? 'IRR',
    order_id: seed.orderId ?? null,
    payer_phone: seed.payerPhone ?? null,
    token: randomBytes(32).toString('base64url'),
    expires_at: new Date(created + 900_000),
    late_until: new Date(created + 4_500_000),
    sandbox: shop.sandbox,
    fee_amount: fee,
    fee_state: feeState,
    fee_stripe: shop.sandbox ? null : 0,
    created_at: seed.createdAt,
    review_required: seed.review ?? false,
    review_reason: seed.review ? 'amount_without_code' : null,
    confirmed_at: confirmed ? new Date(created + 60_000) : null,
    confirmation_source: confirmed ? 'manual' : null,
    amount_received: confirmed ? (seed.amountReceived ?? amountFinal) : null,
    refunded_amount: seed.refunded ?? 0,
    expired_at: seed.status === 'expired' ? new Date(created + 900_000) : null,
    canceled_at: seed.status === 'canceled' ? new Date(created + 30_000) : null,
    rejected_at: seed.status === 'rejected' ? new Date(created + 30_000) : null,
    reject_reason: seed.status === 'rejected' ? 'out of stock' : null,
  };
  const cols = Object.keys(row);
  await db.query(`INSERT INTO payments (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`, Object.values(row));
  return row.id as string;
}

/** A shop made through the API, with the merchant id its row holds (the harness does not return it for every shop). */
export async function shopOf(db: pg.Client, made: { projectId: string; cardId: string }, sandbox: boolean): Promise<Shop> {
  const { rows } = await db.query<{ merchant_id: string }>('SELECT merchant_id FROM projects WHERE id = $1', [made.projectId]);
  return { merchantId: rows[0]!.merchant_id, projectId: made.projectId, cardId: made.cardId, sandbox };
}
