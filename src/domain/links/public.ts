import { z } from 'zod';
import { AppError } from '../../errors.js';
import type { Actor } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import { AMOUNT_MAX, AMOUNT_MIN, checkAmountRange, currencySchema, rangeRefusal, toRials, wholeAmountSchema, type Currency } from '../banking/currency.js';
import { createPaymentFor } from '../payments/create-payment.js';
import { linkClientKey } from './client-cap.js';
import { checkoutUrl } from '../payments/fields.js';
import { Answer, linkKeyScope, type Idempotent } from '../payments/idempotency.js';
import type { PaymentRow } from '../payments/types.js';
import { parseInput, phoneSchema } from '../validation.js';

/** Who the payer is to a link's limits: its address (the forwarded one behind TRUST_PROXY; IPv6 by /64); a keyed caller, its kind. */
function clientAddress(actor: Actor): string {
  return actor.kind === 'public' ? linkClientKey(actor.ip ?? 'unknown') : actor.kind;
}

async function findLink(deps: Deps, slug: string) {
  const link = /^[a-z0-9-]{3,64}$/.test(slug)
    ? await deps.prisma.paymentLink.findUnique({ where: { slug }, include: { project: { include: { merchant: true } } } })
    : null;
  // A link of an inactive project or merchant takes no payments; to the public it does not exist.
  if (!link || !link.active || !link.project.active || link.project.suspendedAt || !link.project.merchant.active) throw AppError.notFound('Payment link');
  return link;
}

/** What a payer sees of a payment link before paying. */
export async function getPublicLink(deps: Deps, slug: string) {
  const link = await findLink(deps, slug);
  return {
    slug: link.slug,
    title: link.title,
    description: link.description,
    amount: link.amount?.toString() ?? null,
    minAmount: link.minAmount?.toString() ?? null,
    maxAmount: link.maxAmount?.toString() ?? null,
    /** The unit the merchant chose: the page asks for and shows the amount in it first. */
    currency: link.currency as Currency,
    project: { displayName: link.project.displayName ?? link.project.name, logoUrl: link.project.logoUrl, color: link.project.color },
  };
}

/** The payer's `amount` is in `currency` (IRR by default, IRT = toman); the range rules apply to the rials. */
export const linkPaymentInput = z.strictObject({
  amount: wholeAmountSchema.nullish(),
  currency: currencySchema.nullish().transform((c) => c ?? 'IRR'),
  payerPhone: phoneSchema.nullish(),
  description: z.string().max(200, 'must be at most 200 characters').nullish(),
}).superRefine(checkAmountRange, { when: () => true });

/** What the payer gets back when a payment starts from a link. */
function linkPaymentView(deps: Deps, p: PaymentRow) {
  return { token: p.token, checkoutUrl: checkoutUrl(deps.config.publicBaseUrl, p.token), amountFinal: p.amountFinal.toString(), expiresAt: p.expiresAt };
}

export type LinkPaymentView = ReturnType<typeof linkPaymentView>;

/**
 * A payer starts a payment from a link (docs/integration.md "8. Payment links"). A fixed-amount
 * link ignores `amount`; otherwise it is required and must lie within the link's min..max. Limited
 * per link and payer address: so many starts a minute (rate-limits.ts), and so many pending
 * payments at a time (client-cap.ts). Under an idempotency key (a retried tap), in the key space of
 * the link and the payer's address.
 */
export async function createLinkPayment(deps: Deps, actor: Actor, slug: string, input: unknown): Promise<LinkPaymentView>;
export async function createLinkPayment(deps: Deps, actor: Actor, slug: string, input: unknown, idem: Idempotent<LinkPaymentView> | undefined): Promise<LinkPaymentView | Answer>;
export async function createLinkPayment(deps: Deps, actor: Actor, slug: string, input: unknown, idem?: Idempotent<LinkPaymentView>): Promise<LinkPaymentView | Answer> {
  const data = parseInput(linkPaymentInput, input ?? {});
  const link = await findLink(deps, slug);
  const address = clientAddress(actor);
  await deps.limits?.consume('linkIp', `${link.id}:${address}`);

  let amount = link.amount;
  if (amount === null) {
    if (data.amount == null) throw AppError.invalid([{ field: 'amount', message: 'is required for this link' }]);
    const rials = toRials(data.amount, data.currency);
    const refusal = rangeRefusal(rials, data.currency, link.minAmount ?? AMOUNT_MIN, link.maxAmount ?? AMOUNT_MAX);
    if (refusal) throw AppError.invalid([{ field: 'amount', message: refusal }]);
    amount = rials;
  }
  const keyed = idem ? { scope: linkKeyScope(link.id, address), idem: { ...idem, render: (p: PaymentRow) => idem.render(linkPaymentView(deps, p)) } } : null;
  const p = await createPaymentFor(
    deps,
    link.project,
    {
      amount,
      currency: data.currency,
      callbackUrl: link.callbackUrl,
      description: data.description ?? link.description,
      payerPhone: data.payerPhone ?? null,
      orderId: null,
      metadata: null,
    },
    { link: { linkId: link.id, address } },
    keyed,
  );
  return p instanceof Answer ? p : linkPaymentView(deps, p);
}
