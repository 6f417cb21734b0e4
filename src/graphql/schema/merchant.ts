import { creditOf, updateMerchant, WITH_CREDIT } from '../../domain/merchants/merchants.js';
import { builder } from '../builder.js';
import { pageWithinScope } from '../cursor-scope.js';
import { NodeRef } from './node.js';
import { UserRef } from './users.js';

const Credit = builder
  .objectRef<{ balance: bigint; reserved: bigint; available: bigint }>('Credit')
  .implement({
    description: 'Rials. `available` = `balance` − `reserved` (fees held by live payments).',
    fields: (t) => ({
      balance: t.expose('balance', { description: 'Credit bought, less fees taken, in rials.', type: 'Amount' }),
      reserved: t.expose('reserved', { description: 'Fees held by live payments not yet final, in rials.', type: 'Amount' }),
      available: t.expose('available', { description: 'What new payments can use: balance − reserved.', type: 'Amount' }),
    }),
  });

builder.prismaObject('CreditLedgerEntry', {
  description: 'An append-only movement of credit.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The entry UUID.' }),
    kind: t.exposeString('kind', { description: 'topup | fee | adjustment' }),
    amount: t.expose('amount', { type: 'Amount', description: 'Signed rials as digits, with a leading - for debits.' }),
    balanceAfter: t.expose('balanceAfter', { description: 'The balance after this entry, in rials.', type: 'Amount' }),
    paymentId: t.exposeString('paymentId', { description: 'The payment whose fee this is.', nullable: true }),
    note: t.exposeString('note', { description: 'The operator’s or system’s note.', nullable: true }),
    createdAt: t.expose('createdAt', { description: 'When it was written.', type: 'DateTime' }),
  }),
});

builder.prismaObject('Merchant', {
  description: 'A business using the gateway: owns projects and devices and holds credit for fees.',
  interfaces: [NodeRef],
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The merchant UUID.' }),
    name: t.exposeString('name', { description: 'The merchant’s name.' }),
    active: t.exposeBoolean('active', { description: 'False once the operator deactivated the merchant.' }),
    requireTotp: t.exposeBoolean('requireTotp', {
      description: 'Every dashboard user needs two-factor sign-in: one who has not set it up may read and set it up, but deciding payments, managing and changing users answer 403 totp_required.',
    }),
    credit: t.field({ description: 'Credit for fees of live payments.', type: Credit, select: { creditBalance: true, ...WITH_CREDIT }, resolve: (m) => creditOf(m) }),
    projects: t.relation('projects', { description: 'The merchant’s projects, oldest first.', query: { orderBy: { createdAt: 'asc' } } }),
    devices: t.relation('devices', { description: 'The phones that forward bank SMS, oldest first.', query: { orderBy: { createdAt: 'asc' } } }),
    ledger: t.prismaConnection({
      description: 'Credit movements, newest first.',
      type: 'CreditLedgerEntry',
      cursor: 'id',
      // A cursor the merchant cannot see answers an empty page (no existence oracle), as for payments.
      resolve: (query, merchant, _args, ctx) =>
        pageWithinScope(query, (id) => ctx.deps.prisma.creditLedgerEntry.count({ where: { id, merchantId: merchant.id } }), () =>
          ctx.deps.prisma.creditLedgerEntry.findMany({ ...query, where: { merchantId: merchant.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
        ),
    }),
    createdAt: t.expose('createdAt', { description: 'When the merchant was created.', type: 'DateTime' }),
  }),
});

const UpdateMerchantInput = builder.inputType('UpdateMerchantInput', {
  description: 'Only the fields given change.',
  fields: (t) => ({
    requireTotp: t.boolean({ description: 'Require two-factor sign-in of every dashboard user. An owner must have it on themselves to turn this on (409 invalid_state).' }),
  }),
});

builder.mutationField('updateMerchant', (t) =>
  t.prismaField({
    description: 'Changes the merchant’s own settings; audited (merchant.updated). The merchant key or an owner’s dashboard session (other roles: 403 forbidden).',
    type: 'Merchant',
    authScopes: { merchant: true },
    args: { input: t.arg({ description: 'What to change.', type: UpdateMerchantInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const merchant = await updateMerchant(ctx.deps, ctx.actor, input);
      return ctx.deps.prisma.merchant.findUniqueOrThrow({ ...query, where: { id: merchant.id } });
    },
  }),
);

const ViewerKind = builder.enumType('ViewerKind', {
  description: 'Which kind of key the caller used.',
  values: {
    merchant: { description: 'A merchant key (mk_…).' },
    project: { description: 'A project API key (sk_live_… or sk_test_…).' },
    user: { description: 'A dashboard user’s session (cookie).' },
  } as const,
});

type ViewerShape = { kind: 'merchant' | 'project' | 'user'; merchantId: string | null; projectId: string | null; userId: string | null };

const Viewer = builder.objectRef<ViewerShape>('Viewer').implement({
  description: 'The caller: a merchant (merchant key), a project (project API key) or a dashboard user (session) with its merchant.',
  fields: (t) => ({
    user: t.field({
      description: 'The dashboard user, for a session; null otherwise.',
      type: UserRef,
      nullable: true,
      resolve: (v, _args, ctx) => (v.userId ? ctx.deps.prisma.user.findUnique({ where: { id: v.userId } }) : null),
    }),
    kind: t.field({ description: 'Which kind of key the caller used.', type: ViewerKind, resolve: (v) => v.kind }),
    merchant: t.prismaField({
      description: 'The merchant, for a merchant key or a dashboard session; null otherwise.',
      type: 'Merchant',
      nullable: true,
      resolve: (query, v, _args, ctx) =>
        v.merchantId ? ctx.deps.prisma.merchant.findUnique({ ...query, where: { id: v.merchantId } }) : null,
    }),
    project: t.prismaField({
      description: 'The project, for a project key; null otherwise.',
      type: 'Project',
      nullable: true,
      resolve: (query, v, _args, ctx) =>
        v.projectId ? ctx.deps.prisma.project.findUnique({ ...query, where: { id: v.projectId } }) : null,
    }),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({
    description: 'The caller: the merchant or the project the key belongs to.',
    type: Viewer,
    nullable: true,
    authScopes: { merchant: true, project: true },
    resolve: (_root, _args, { actor }): ViewerShape => {
      if (actor.kind === 'merchant') return { kind: 'merchant', merchantId: actor.merchantId, projectId: null, userId: null };
      if (actor.kind === 'project') return { kind: 'project', merchantId: null, projectId: actor.projectId, userId: null };
      if (actor.kind === 'user') return { kind: 'user', merchantId: actor.merchantId, projectId: null, userId: actor.userId };
      throw new Error('unreachable: authScopes admit only merchants and projects');
    },
  }),
);
