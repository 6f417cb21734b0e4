import type { Tx } from '../../db/prisma.js';
import { operatorActor, requireActor, type Actor } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import { createMerchant, issueMerchantKey } from '../merchants/merchants.js';
import { issueProjectKey } from '../projects/projects.js';
import { resetDemoOwner } from '../users/demo-owner.js';

export const DEMO_LINK_SLUG = 'demo';

export type DemoIds = {
  merchantId: string;
  projectId: string;
  cardId: string;
  linkSlug: string;
  merchantKey: string;
  apiKey: string;
  /** The demo owner's dashboard sign-in; the password is new each time (only its hash is kept). */
  ownerEmail: string;
  ownerPassword: string;
};

async function createDemoRows(tx: Tx, merchantId: string) {
  const project = await tx.project.create({
    data: { merchantId, name: 'Demo shop', sandbox: true, displayName: 'فروشگاه نمونه', color: '#0f766e', note: 'This is a sandbox project: no real money moves.' },
  });
  const card = await tx.card.create({
    data: { projectId: project.id, merchantId, bankCode: 'mellat', cardNumber: '6104337812345678', holderName: 'فروشگاه نمونه' },
  });
  await tx.paymentLink.create({
    data: { projectId: project.id, slug: DEMO_LINK_SLUG, title: 'Demo payment', description: 'Pay any amount to the demo shop.', minAmount: 10_000n, maxAmount: 50_000_000n },
  });
  return { project, card };
}

/**
 * The demo sandbox merchant, project, card, link and dashboard owner. Created on the first start of
 * the embedded default; asked for again (CLI `demo`), its keys and the owner's password are
 * re-issued and the old ones revoked, since they are stored hashed and cannot be shown twice.
 */
export async function ensureDemo(deps: Deps, actor: Actor = operatorActor): Promise<DemoIds & { created: boolean; apiKeyId: string }> {
  const demo = await ensureDemoKeys(deps, actor);
  const owner = await resetDemoOwner(deps, demo.merchantId);
  return { ...demo, ownerEmail: owner.email, ownerPassword: owner.password };
}

async function ensureDemoKeys(deps: Deps, actor: Actor): Promise<Omit<DemoIds, 'ownerEmail' | 'ownerPassword'> & { created: boolean; apiKeyId: string }> {
  requireActor(actor, 'operator');
  const existing = await deps.prisma.merchant.findFirst({ where: { demo: true } });
  if (!existing) {
    const { merchant, merchantKey } = await createMerchant(deps, actor, { name: 'Demo merchant', demo: true });
    const ids = await deps.prisma.$transaction(async (tx) => {
      const { project, card } = await createDemoRows(tx, merchant.id);
      const { secret, apiKey } = await issueProjectKey(tx, project);
      return { projectId: project.id, cardId: card.id, apiKey: secret, keyId: apiKey.id };
    });
    return { merchantId: merchant.id, merchantKey, linkSlug: DEMO_LINK_SLUG, created: true, projectId: ids.projectId, cardId: ids.cardId, apiKey: ids.apiKey, apiKeyId: ids.keyId };
  }
  return deps.prisma.$transaction(async (tx) => {
    const now = new Date();
    await tx.merchantKey.updateMany({ where: { merchantId: existing.id, revokedAt: null }, data: { revokedAt: now } });
    const project =
      (await tx.project.findFirst({ where: { merchantId: existing.id, sandbox: true }, orderBy: { createdAt: 'asc' } })) ??
      (await createDemoRows(tx, existing.id)).project;
    await tx.apiKey.updateMany({ where: { projectId: project.id, revokedAt: null }, data: { revokedAt: now } });
    const card = await tx.card.findFirstOrThrow({ where: { projectId: project.id }, orderBy: { createdAt: 'asc' } });
    const merchantKey = await issueMerchantKey(tx, existing.id);
    const { secret, apiKey } = await issueProjectKey(tx, project);
    return { merchantId: existing.id, projectId: project.id, cardId: card.id, linkSlug: DEMO_LINK_SLUG, merchantKey, apiKey: secret, apiKeyId: apiKey.id, created: false };
  });
}
