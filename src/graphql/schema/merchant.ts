import { creditOf } from '../../domain/merchants/merchants.js';
import { builder } from '../builder.js';

const Credit = builder
  .objectRef<{ balance: bigint; reserved: bigint; available: bigint }>('Credit')
  .implement({
    description: 'Rials. `available` = `balance` − `reserved` (fees held by live payments).',
    fields: (t) => ({
      balance: t.expose('balance', { type: 'Amount' }),
      reserved: t.expose('reserved', { type: 'Amount' }),
      available: t.expose('available', { type: 'Amount' }),
    }),
  });

builder.prismaObject('CreditLedgerEntry', {
  description: 'An append-only movement of credit.',
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.exposeString('kind', { description: 'topup | fee | adjustment' }),
    amount: t.expose('amount', { type: 'Amount', description: 'Signed rials as digits, with a leading - for debits.' }),
    balanceAfter: t.expose('balanceAfter', { type: 'Amount' }),
    paymentId: t.exposeString('paymentId', { nullable: true }),
    note: t.exposeString('note', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.prismaObject('Merchant', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    active: t.exposeBoolean('active'),
    credit: t.field({ type: Credit, select: { creditBalance: true, creditReserved: true }, resolve: (m) => creditOf(m) }),
    projects: t.relation('projects', { query: { orderBy: { createdAt: 'asc' } } }),
    devices: t.relation('devices', { query: { orderBy: { createdAt: 'asc' } } }),
    ledger: t.relatedConnection('ledger', { cursor: 'id', query: { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] } }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const ViewerKind = builder.enumType('ViewerKind', { values: ['merchant', 'project'] as const });

type ViewerShape = { kind: 'merchant' | 'project'; merchantId: string | null; projectId: string | null };

const Viewer = builder.objectRef<ViewerShape>('Viewer').implement({
  description: 'The caller: a merchant (merchant key) or a project (project API key).',
  fields: (t) => ({
    kind: t.field({ type: ViewerKind, resolve: (v) => v.kind }),
    merchant: t.prismaField({
      type: 'Merchant',
      nullable: true,
      resolve: (query, v, _args, ctx) =>
        v.merchantId ? ctx.deps.prisma.merchant.findUnique({ ...query, where: { id: v.merchantId } }) : null,
    }),
    project: t.prismaField({
      type: 'Project',
      nullable: true,
      resolve: (query, v, _args, ctx) =>
        v.projectId ? ctx.deps.prisma.project.findUnique({ ...query, where: { id: v.projectId } }) : null,
    }),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({
    type: Viewer,
    nullable: true,
    authScopes: { merchant: true, project: true },
    resolve: (_root, _args, { actor }): ViewerShape => {
      if (actor.kind === 'merchant') return { kind: 'merchant', merchantId: actor.merchantId, projectId: null };
      if (actor.kind === 'project') return { kind: 'project', merchantId: null, projectId: actor.projectId };
      throw new Error('unreachable: authScopes admit only merchants and projects');
    },
  }),
);
