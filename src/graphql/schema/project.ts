import { createApiKey, createProject, revokeApiKey, updateProject } from '../../domain/projects/projects.js';
import { builder } from '../builder.js';

builder.prismaObject('Project', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    sandbox: t.exposeBoolean('sandbox'),
    active: t.exposeBoolean('active', { description: "The merchant's own switch." }),
    suspended: t.boolean({
      description: 'Suspended by the operator; only the operator can lift it.',
      select: { suspendedAt: true },
      resolve: (p) => p.suspendedAt !== null,
    }),
    amountMode: t.exposeString('amountMode'),
    paymentTimeLimitSeconds: t.exposeInt('paymentTimeLimitSeconds'),
    lateWindowSeconds: t.exposeInt('lateWindowSeconds'),
    maxCode: t.exposeInt('maxCode'),
    allowedCallbackHosts: t.exposeStringList('allowedCallbackHosts'),
    displayName: t.exposeString('displayName', { nullable: true }),
    logoUrl: t.exposeString('logoUrl', { nullable: true }),
    color: t.exposeString('color', { nullable: true }),
    note: t.exposeString('note', { nullable: true }),
    supportPhone: t.exposeString('supportPhone', { nullable: true }),
    autoConfirm: t.exposeBoolean('autoConfirm'),
    feeBps: t.exposeInt('feeBps'),
    feeMin: t.expose('feeMin', { type: 'Amount' }),
    feeMax: t.expose('feeMax', { type: 'Amount' }),
    apiKeys: t.relation('apiKeys', { query: { orderBy: { createdAt: 'asc' } } }),
    cards: t.relation('cards', { query: { orderBy: { createdAt: 'asc' } } }),
    links: t.relation('links', { query: { orderBy: { createdAt: 'asc' } } }),
    webhookEndpoint: t.relation('webhookEndpoint', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.prismaObject('ApiKey', {
  description: 'A project API key. The key itself is shown once, when issued.',
  fields: (t) => ({
    id: t.exposeID('id'),
    projectId: t.exposeID('projectId'),
    prefix: t.exposeString('keyPrefix'),
    revoked: t.boolean({ select: { revokedAt: true }, resolve: (k) => k.revokedAt !== null }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

type InputFields = PothosSchemaTypes.InputFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never>, 'InputObject'>;

/** The settings a merchant may set at creation and change later; the domain validates them. */
const settingsFields = (t: InputFields) => ({
  paymentTimeLimitSeconds: t.int(),
  lateWindowSeconds: t.int(),
  maxCode: t.int(),
  allowedCallbackHosts: t.stringList(),
  displayName: t.string(),
  logoUrl: t.string(),
  color: t.string(),
  note: t.string(),
  supportPhone: t.string(),
  autoConfirm: t.boolean(),
});

const CreateProjectInput = builder.inputType('CreateProjectInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    sandbox: t.boolean({ description: 'Sandbox projects take simulated deposits and cost no credit. Default false.' }),
    ...settingsFields(t),
  }),
});

const UpdateProjectInput = builder.inputType('UpdateProjectInput', {
  description: 'Only the fields given change; null clears a nullable field.',
  fields: (t) => ({ name: t.string(), active: t.boolean(), ...settingsFields(t) }),
});

const CreateProjectPayload = builder.objectRef<{ apiKey: string; projectId: string }>('CreateProjectPayload').implement({
  fields: (t) => ({
    apiKey: t.exposeString('apiKey', { description: 'The project API key; shown only now.' }),
    project: t.prismaField({
      type: 'Project',
      resolve: (query, parent, _args, ctx) => ctx.deps.prisma.project.findUniqueOrThrow({ ...query, where: { id: parent.projectId } }),
    }),
  }),
});

const CreateApiKeyPayload = builder.objectRef<{ key: string; apiKeyId: string }>('CreateApiKeyPayload').implement({
  fields: (t) => ({
    key: t.exposeString('key', { description: 'The API key; shown only now.' }),
    apiKey: t.prismaField({
      type: 'ApiKey',
      resolve: (query, parent, _args, ctx) => ctx.deps.prisma.apiKey.findUniqueOrThrow({ ...query, where: { id: parent.apiKeyId } }),
    }),
  }),
});

builder.mutationFields((t) => ({
  createProject: t.field({
    type: CreateProjectPayload,
    authScopes: { merchant: true },
    args: { input: t.arg({ type: CreateProjectInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const { project, apiKey } = await createProject(ctx.deps, ctx.actor, input);
      return { apiKey, projectId: project.id };
    },
  }),
  updateProject: t.prismaField({
    type: 'Project',
    authScopes: { merchant: true },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateProjectInput, required: true }) },
    resolve: async (query, _root, { id, input }, ctx) => {
      const project = await updateProject(ctx.deps, ctx.actor, String(id), input);
      return ctx.deps.prisma.project.findUniqueOrThrow({ ...query, where: { id: project.id } });
    },
  }),
  createApiKey: t.field({
    type: CreateApiKeyPayload,
    authScopes: { merchant: true },
    args: { projectId: t.arg.id({ required: true }) },
    resolve: async (_root, { projectId }, ctx) => {
      const { apiKey, secret } = await createApiKey(ctx.deps, ctx.actor, String(projectId));
      return { key: secret, apiKeyId: apiKey.id };
    },
  }),
  revokeApiKey: t.prismaField({
    type: 'ApiKey',
    authScopes: { merchant: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const key = await revokeApiKey(ctx.deps, ctx.actor, String(id));
      return ctx.deps.prisma.apiKey.findUniqueOrThrow({ ...query, where: { id: key.id } });
    },
  }),
}));
