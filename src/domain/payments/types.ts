import type { Payment } from '../../generated/prisma/client.js';

export type PaymentRow = Payment;

export const PAYMENT_STATUSES = ['pending', 'confirmed', 'expired', 'rejected', 'canceled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const EVENT_TYPES = ['payment.confirmed', 'payment.expired', 'payment.rejected', 'payment.canceled'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
