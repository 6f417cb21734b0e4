import { jsonColumn } from '../../ordered-json.js';
import type { PaymentRow } from './types.js';

/**
 * The merchant's metadata as an object in the order it was sent. The column is read as its JSON
 * text (src/db/pool.ts), which alone keeps integer-like keys where the merchant put them.
 */
export function paymentMetadata(p: Pick<PaymentRow, 'metadata'>): Record<string, unknown> | null {
  return p.metadata === null || p.metadata === undefined ? null : (jsonColumn(p.metadata) as Record<string, unknown>);
}

/** The hosted checkout page of a payment: every door and the link's answer give the same address. */
export function checkoutUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/pay/${token}`;
}
