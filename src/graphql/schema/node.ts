import { visibleMessages } from '../../domain/bank-messages/decisions.js';
import type { Actor } from '../../domain/auth/actor.js';
import type { Deps } from '../../domain/deps.js';
import { uuidSchema } from '../../domain/validation.js';
import { deliveriesOf } from '../../domain/webhooks/manage.js';
import { builder } from '../builder.js';

/**
 * Relay's `Node`, with one difference (docs/decisions.md): `id` stays the plain UUID used by REST
 * and by `payment(id)`, so `node(id)` finds the type by looking the UUID up among the types the
 * caller may see. UUIDs are random, so one id names at most one row.
 */
const nodeTypes = new WeakMap<object, string>();

export const NodeRef = builder.interfaceRef<{ id: string }>('Node').implement({
  description: 'An object with a UUID that `node(id)` can fetch again (Relay refetching). The id is the same UUID as in REST.',
  fields: (t) => ({ id: t.exposeID('id', { description: 'The UUID of the object, as in REST.' }) }),
  resolveType: (value) => nodeTypes.get(value) ?? null,
});

type Lookup = [typename: string, find: () => Promise<object | null>];

function lookupsFor(deps: Deps, actor: Actor, id: string): Lookup[] {
  const db = deps.prisma;
  if (actor.kind === 'project') {
    return [
      ['Payment', () => db.payment.findFirst({ where: { id, projectId: actor.projectId } })],
      ['BankMessage', () => db.bankMessage.findFirst({ where: { AND: [{ id }, visibleMessages(actor)] } })],
      ['WebhookDelivery', () => db.webhookDelivery.findFirst({ where: { AND: [{ id }, deliveriesOf(actor, {})] } })],
      ['Project', () => (id === actor.projectId ? db.project.findUnique({ where: { id } }) : Promise.resolve(null))],
    ];
  }
  if (actor.kind === 'merchant' || actor.kind === 'user') {
    const merchantId = actor.merchantId;
    return [
      ['Project', () => db.project.findFirst({ where: { id, merchantId } })],
      ['Card', () => db.card.findFirst({ where: { id, merchantId } })],
      ['Device', () => db.device.findFirst({ where: { id, merchantId } })],
      ['PaymentLink', () => db.paymentLink.findFirst({ where: { id, project: { merchantId } } })],
      ['BankMessage', () => db.bankMessage.findFirst({ where: { AND: [{ id }, visibleMessages(actor)] } })],
      ['Merchant', () => (id === merchantId ? db.merchant.findUnique({ where: { id } }) : Promise.resolve(null))],
    ];
  }
  return [];
}

/** The object with this UUID among those the caller may see, or null (unknown, foreign or not a UUID). */
async function findNode(deps: Deps, actor: Actor, id: string): Promise<{ id: string } | null> {
  if (!uuidSchema.safeParse(id).success) return null;
  const found = await Promise.all(lookupsFor(deps, actor, id).map(async ([typename, find]) => ({ typename, row: await find() })));
  const hit = found.find((f) => f.row !== null);
  if (!hit?.row) return null;
  nodeTypes.set(hit.row, hit.typename);
  return hit.row as { id: string };
}

builder.queryField('node', (t) =>
  t.field({
    type: NodeRef,
    nullable: true,
    description:
      'Refetches any object that implements Node by its UUID: a project key sees its payments, bank messages, webhook deliveries and project; a merchant key its projects, cards, devices, payment links, bank messages and itself. Null for an id the caller cannot see.',
    args: { id: t.arg.id({ required: true, description: 'The UUID of the object.' }) },
    resolve: (_root, { id }, ctx) => findNode(ctx.deps, ctx.actor, String(id)),
  }),
);
