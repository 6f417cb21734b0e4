import { createApiKey, createProject, revokeApiKey, updateProject } from '../../domain/projects/projects.js';
import { builder } from '../builder.js';
import { NodeRef } from './node.js';

builder.prismaObject('Project', {
  description: 'One shop or site of a merchant: its API keys, cards, payment links, webhook endpoint and settings. Sandbox projects take simulated deposits only.',
  interfaces: [NodeRef],
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The project UUID.' }),
    name: t.exposeString('name', { description: 'The project’s name, shown to the payer when no displayName is set.' }),
    sandbox: t.exposeBoolean('sandbox', { description: 'True for a sandbox (test) project: `sk_test_` keys, simulated deposits, no credit used.' }),
    active: t.exposeBoolean('active', { description: "The merchant's own switch." }),
    suspended: t.boolean({
      description: 'Suspended by the operator; only the operator can lift it.',
      select: { suspendedAt: true },
      resolve: (p) => p.suspendedAt !== null,
    }),
    amountMode: t.exposeString('amountMode', { description: 'How final amounts are made: unique_code.' }),
    paymentTimeLimitSeconds: t.exposeInt('paymentTimeLimitSeconds', { description: 'How long a payment stays pending (5..86,400 s, default 900).' }),
    lateWindowSeconds: t.exposeInt('lateWindowSeconds', { description: 'How long after expiry a deposit still confirms a payment (0..604,800 s, default 3,600).' }),
    maxCode: t.exposeInt('maxCode', { description: 'The largest unique code, in tens of rials (1..9,999, default 999).' }),
    allowedCallbackHosts: t.exposeStringList('allowedCallbackHosts', { description: 'Hostnames a callbackUrl may use; empty allows any https host.' }),
    displayName: t.exposeString('displayName', { description: 'The name on the checkout page.', nullable: true }),
    logoUrl: t.exposeString('logoUrl', { description: 'An https logo shown on the checkout page.', nullable: true }),
    color: t.exposeString('color', { description: 'The checkout page’s accent colour, #rrggbb.', nullable: true }),
    note: t.exposeString('note', { description: 'A note shown to the payer on the checkout page.', nullable: true }),
    supportPhone: t.exposeString('supportPhone', { description: 'A phone number the payer can call, shown on the checkout page.', nullable: true }),
    autoConfirm: t.exposeBoolean('autoConfirm', { description: 'Whether a matching deposit confirms automatically (shown on the checkout view).' }),
    feeBps: t.exposeInt('feeBps', { description: 'The fee per confirmed live payment in basis points of amountFinal; set by the operator.' }),
    feeMin: t.expose('feeMin', { description: 'The smallest fee, in rials.', type: 'Amount' }),
    feeMax: t.expose('feeMax', { description: 'The largest fee, in rials.', type: 'Amount' }),
    apiKeys: t.relation('apiKeys', { description: 'The project’s API keys, oldest first (the keys themselves are never shown again).', query: { orderBy: { createdAt: 'asc' } } }),
    cards: t.relation('cards', { description: 'The cards payers transfer to, oldest first.', query: { orderBy: { createdAt: 'asc' } } }),
    links: t.relation('links', { description: 'The payment links, oldest first.', query: { orderBy: { createdAt: 'asc' } } }),
    webhookEndpoint: t.relation('webhookEndpoint', { description: 'Where webhooks go; null until set.', nullable: true }),
    createdAt: t.expose('createdAt', { description: 'When the project was created.', type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { description: 'When the project last changed.', type: 'DateTime' }),
  }),
});

builder.prismaObject('ApiKey', {
  description: 'A project API key. The key itself is shown once, when issued.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The key UUID; revoke with revokeApiKey.' }),
    projectId: t.exposeID('projectId', { description: 'The project the key belongs to.' }),
    prefix: t.exposeString('keyPrefix', { description: 'The first characters of the key, to tell keys apart.' }),
    revoked: t.boolean({ description: 'True once revoked; a revoked key answers 401.', select: { revokedAt: true }, resolve: (k) => k.revokedAt !== null }),
    revokedAt: t.expose('revokedAt', { description: 'When it was revoked.', type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { description: 'When it was issued.', type: 'DateTime' }),
  }),
});

type InputFields = PothosSchemaTypes.InputFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never>, 'InputObject'>;

/** The settings a merchant may set at creation and change later; the domain validates them. */
const settingsFields = (t: InputFields) => ({
  paymentTimeLimitSeconds: t.int({ description: 'How long a payment stays pending: 5..86,400 seconds (default 900).' }),
  lateWindowSeconds: t.int({ description: 'How long after expiry a deposit still confirms: 0..604,800 seconds (default 3,600).' }),
  maxCode: t.int({ description: 'Largest unique code in tens of rials: 1..9,999 (default 999).' }),
  allowedCallbackHosts: t.stringList({ description: 'Hostnames callbackUrl may use; empty allows any.' }),
  displayName: t.string({ description: 'The name on the checkout page.' }),
  logoUrl: t.string({ description: 'An https URL of a logo for the checkout page.' }),
  color: t.string({ description: 'Accent colour #rrggbb.' }),
  note: t.string({ description: 'A note shown to the payer.' }),
  supportPhone: t.string({ description: 'A support phone shown to the payer.' }),
  autoConfirm: t.boolean({ description: 'Whether matching deposits confirm automatically (default true).' }),
});

const CreateProjectInput = builder.inputType('CreateProjectInput', {
  description: 'A new project. Settings left out take their defaults.',
  fields: (t) => ({
    name: t.string({ description: 'The project’s name.', required: true }),
    sandbox: t.boolean({ description: 'Sandbox projects take simulated deposits and cost no credit. Default false.' }),
    ...settingsFields(t),
  }),
});

const UpdateProjectInput = builder.inputType('UpdateProjectInput', {
  description: 'Only the fields given change; null clears a nullable field.',
  fields: (t) => ({ name: t.string({ description: 'A new name.' }), active: t.boolean({ description: 'The merchant’s switch: false stops new payments and refuses the project’s keys (403 project_inactive).' }), ...settingsFields(t) }),
});

const CreateProjectPayload = builder.objectRef<{ apiKey: string; projectId: string }>('CreateProjectPayload').implement({
  description: 'The new project and its first API key.',
  fields: (t) => ({
    apiKey: t.exposeString('apiKey', { description: 'The project API key; shown only now.' }),
    project: t.prismaField({
      description: 'The new project.',
      type: 'Project',
      resolve: (query, parent, _args, ctx) => ctx.deps.prisma.project.findUniqueOrThrow({ ...query, where: { id: parent.projectId } }),
    }),
  }),
});

const CreateApiKeyPayload = builder.objectRef<{ key: string; apiKeyId: string }>('CreateApiKeyPayload').implement({
  description: 'A newly issued API key.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'The API key; shown only now.' }),
    apiKey: t.prismaField({
      description: 'The key’s record (prefix, dates).',
      type: 'ApiKey',
      resolve: (query, parent, _args, ctx) => ctx.deps.prisma.apiKey.findUniqueOrThrow({ ...query, where: { id: parent.apiKeyId } }),
    }),
  }),
});

builder.mutationFields((t) => ({
  createProject: t.field({
    description: 'Creates a project and its first API key (shown once). Merchant key.',
    type: CreateProjectPayload,
    authScopes: { merchant: true },
    args: { input: t.arg({ description: 'The project to create.', type: CreateProjectInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const { project, apiKey } = await createProject(ctx.deps, ctx.actor, input);
      return { apiKey, projectId: project.id };
    },
  }),
  updateProject: t.prismaField({
    description: 'Changes a project’s settings. Merchant key.',
    type: 'Project',
    authScopes: { merchant: true },
    args: { id: t.arg.id({ description: 'The project UUID.', required: true }), input: t.arg({ description: 'The settings to change.', type: UpdateProjectInput, required: true }) },
    resolve: async (query, _root, { id, input }, ctx) => {
      const project = await updateProject(ctx.deps, ctx.actor, String(id), input);
      return ctx.deps.prisma.project.findUniqueOrThrow({ ...query, where: { id: project.id } });
    },
  }),
  createApiKey: t.field({
    description: 'Issues another API key for a project (shown once), e.g. to rotate keys. At most 20 active keys per project: one more is 409 limit_reached. Merchant key.',
    type: CreateApiKeyPayload,
    authScopes: { merchant: true },
    args: { projectId: t.arg.id({ description: 'The project UUID.', required: true }) },
    resolve: async (_root, { projectId }, ctx) => {
      const { apiKey, secret } = await createApiKey(ctx.deps, ctx.actor, String(projectId));
      return { key: secret, apiKeyId: apiKey.id };
    },
  }),
  revokeApiKey: t.prismaField({
    description: 'Revokes an API key at once. Merchant key.',
    type: 'ApiKey',
    authScopes: { merchant: true },
    args: { id: t.arg.id({ description: 'The API key UUID.', required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const key = await revokeApiKey(ctx.deps, ctx.actor, String(id));
      return ctx.deps.prisma.apiKey.findUniqueOrThrow({ ...query, where: { id: key.id } });
    },
  }),
}));
