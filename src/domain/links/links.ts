import { z } from 'zod';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../errors.js';
import { recordUpdate, writeAudited } from '../audit/audit.js';
import { createdValues } from '../audit/changes.js';
import { requireActor, type Actor } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import { checkCallbackUrl } from '../projects/callback-url.js';
import { findOwnedProject } from '../projects/projects.js';
import { parseInput, uuidSchema } from '../validation.js';
import { currencySchema, rangeRefusal, toRials, wholeAmountSchema } from '../banking/currency.js';

const createLinkInput = z
  .object({
    projectId: uuidSchema,
    slug: z.string().regex(/^[a-z0-9-]{3,64}$/, 'must be 3..64 characters of a-z, 0-9 and -'),
    title: z.string().trim().min(1).max(200),
    description: z.string().trim().max(300).nullish(),
    /** The unit of `amount`, `minAmount` and `maxAmount` (IRR by default, IRT = toman), and the one its page shows first. */
    currency: currencySchema.nullish().transform((c) => c ?? 'IRR'),
    amount: wholeAmountSchema.nullish(),
    minAmount: wholeAmountSchema.nullish(),
    maxAmount: wholeAmountSchema.nullish(),
    callbackUrl: z.string().max(2048).nullish(),
  })
  .transform((d) => {
    const rials = (a: bigint | null | undefined) => (a == null ? a : toRials(a, d.currency));
    return { ...d, amount: rials(d.amount), minAmount: rials(d.minAmount), maxAmount: rials(d.maxAmount) };
  })
  .superRefine((d, ctx) => {
    for (const field of ['amount', 'minAmount', 'maxAmount'] as const) {
      const value = d[field];
      const refusal = value == null ? null : rangeRefusal(value, d.currency);
      if (refusal) ctx.addIssue({ code: 'custom', path: [field], message: refusal });
    }
    if (d.amount != null && (d.minAmount != null || d.maxAmount != null)) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'a fixed amount excludes minAmount and maxAmount' });
    }
    if (d.minAmount != null && d.maxAmount != null && d.minAmount > d.maxAmount) {
      ctx.addIssue({ code: 'custom', path: ['maxAmount'], message: 'must be at least minAmount' });
    }
  });

const LINK_FIELDS = ['slug', 'title', 'description', 'currency', 'amount', 'minAmount', 'maxAmount', 'callbackUrl'] as const;

/** Merchant: a public payment link; slugs are unique across all projects. */
export async function createPaymentLink(deps: Deps, actor: Actor, input: unknown) {
  const merchant = requireActor(actor, 'merchant');
  const data = parseInput(createLinkInput, input);
  const project = await findOwnedProject(deps.prisma, merchant.merchantId, data.projectId);
  if (data.callbackUrl) checkCallbackUrl(project, data.callbackUrl);
  try {
    return await writeAudited(
      deps.prisma,
      actor,
      (tx) =>
        tx.paymentLink.create({
          data: {
            projectId: project.id,
            slug: data.slug,
            title: data.title,
            description: data.description ?? null,
            currency: data.currency,
            amount: data.amount ?? null,
            minAmount: data.minAmount ?? null,
            maxAmount: data.maxAmount ?? null,
            callbackUrl: data.callbackUrl ?? null,
          },
        }),
      (link) => ({ action: 'payment_link.created', subjectType: 'payment_link', subjectId: link.id, projectId: link.projectId, changes: createdValues(link, LINK_FIELDS) }),
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('slug_taken', `The slug "${data.slug}" is already used.`);
    throw err;
  }
}

const updateLinkInput = z
  .object({
    title: z.string().trim().min(1).max(200).nullish(),
    description: z.string().trim().max(300).nullish(),
    callbackUrl: z.string().max(2048).nullish(),
    /** false takes the link down: its page and API answer 404 and it takes no payments; true puts it back. */
    active: z.boolean().nullish(),
  })
  .strict();

const UPDATABLE_LINK_FIELDS = ['title', 'description', 'callbackUrl', 'active'] as const;

/**
 * Merchant: changes a link's title, description, callback or takes it down (`active: false`). Its
 * slug, unit and amounts stay as created (payers may hold its URL; make a new link for new terms).
 */
export async function updatePaymentLink(deps: Deps, actor: Actor, id: string, input: unknown) {
  const merchant = requireActor(actor, 'merchant');
  const data = parseInput(updateLinkInput, input);
  const link = uuidSchema.safeParse(id).success ? await deps.prisma.paymentLink.findFirst({ where: { id, project: { merchantId: merchant.merchantId } }, include: { project: true } }) : null;
  if (!link) throw AppError.notFound('Payment link');
  if (data.callbackUrl) checkCallbackUrl(link.project, data.callbackUrl);
  const changes = Object.fromEntries(Object.entries(data).filter(([k, v]) => v !== undefined && (v !== null || k === 'description' || k === 'callbackUrl')));
  return deps.prisma.$transaction(async (tx) => {
    const updated = await tx.paymentLink.update({ where: { id: link.id }, data: changes });
    await recordUpdate(tx, actor, {
      action: 'payment_link.updated',
      subjectType: 'payment_link',
      subjectId: link.id,
      projectId: link.projectId,
      before: link,
      after: updated,
      fields: UPDATABLE_LINK_FIELDS.filter((f) => f in changes),
    });
    return updated;
  });
}
