import type { Payment } from '../../generated/prisma/client.js';

export type PaymentRow = Payment;

export const PAYMENT_STATUSES = ['pending', 'confirmed', 'expired', 'rejected', 'canceled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** A payment reaching a final state (the events of the transition table). */
export const FINAL_EVENT_TYPES = ['payment.confirmed', 'payment.expired', 'payment.rejected', 'payment.canceled'] as const;
/** Every event about one payment: its final states, its refunds, and the attention event for a review. */
export const EVENT_TYPES = [...FINAL_EVENT_TYPES, 'payment.refunded', 'payment.review_required'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
