import { z } from 'zod';
import type { Tx } from '../../db/prisma.js';
import { AppError } from '../../errors.js';
import { recordAudit, recordUpdate, writeAudited } from '../audit/audit.js';
import { changesOf, createdValues } from '../audit/changes.js';
import { operatorActor, requireActor, type Actor } from '../auth/actor.js';
import { ensureRoomForApiKey } from '../auth/credential-limits.js';
import { credentialPrefix, issueCredential } from '../auth/credentials.js';
import type { Deps } from '../deps.js';
import { httpsUrlSchema, parseInput, uuidSchema } from '../validation.js';

const hostname = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/, 'must be a hostname such as shop.example.com');

const settingsShape = {
  paymentTimeLimitSeconds: z.number().int().min(5).max(86_400),
  lateWindowSeconds: z.number().int().min(0).max(604_800),
  maxCode: z.number().int().min(1).max(9_999),
  allowedCallbackHosts: z.array(hostname).max(50),
  displayName: z.string().trim().min(1).max(100).nullable(),
  logoUrl: httpsUrlSchema.nullable(),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour as #rrggbb').nullable(),
  note: z.string().trim().max(500).nullable(),
  supportPhone: z.string().trim().min(10).max(20).nullable(),
  autoConfirm: z.boolean(),
};

const createProjectInput = z.object({
  name: z.string().trim().min(1).max(200),
  sandbox: z.boolean().default(false),
  ...z.object(settingsShape).partial().shape,
});

const updateProjectInput = z
  .object({ name: z.string().trim().min(1).max(200), active: z.boolean(), ...settingsShape })
  .partial()
  .strict();

export type ProjectRow = Awaited<ReturnType<Deps['prisma']['project']['findUniqueOrThrow']>>;

/** A project of the merchant's, or 404 exactly as for an id that does not exist. */
export async function findOwnedProject(db: Pick<Tx, 'project'>, merchantId: string, projectId: string): Promise<ProjectRow> {
  if (!uuidSchema.safeParse(projectId).success) throw AppError.notFound('Project');
  const project = await db.project.findFirst({ where: { id: projectId, merchantId } });
  if (!project) throw AppError.notFound('Project');
  return project;
}

/**
 * A new API key of the project, within its limit of active keys (409 `limit_reached`), recorded in
 * the audit log as the actor's (the demo re-issue, which calls it without one, is the operator's).
 */
export async function issueProjectKey(tx: Tx, project: { id: string; merchantId: string; sandbox: boolean }, actor: Actor = operatorActor) {
  await ensureRoomForApiKey(tx, project.id);
  const issued = issueCredential(project.sandbox ? credentialPrefix.projectTest : credentialPrefix.projectLive);
  const row = await tx.apiKey.create({ data: { projectId: project.id, keyHash: issued.hash, keyPrefix: issued.prefix } });
  await recordAudit(tx, actor, {
    action: 'api_key.created',
    subjectType: 'api_key',
    subjectId: row.id,
    projectId: project.id,
    merchantId: project.merchantId,
    changes: createdValues(row, ['keyPrefix']),
  });
  return { apiKey: row, secret: issued.secret };
}

/** Merchant: a project and its first API key, shown once. */
export async function createProject(deps: Deps, actor: Actor, input: unknown) {
  const merchant = requireActor(actor, 'merchant');
  const data = parseInput(createProjectInput, input);
  return deps.prisma.$transaction(async (tx) => {
    const project = await tx.project.create({ data: { ...data, merchantId: merchant.merchantId } });
    await recordAudit(tx, actor, {
      action: 'project.created',
      subjectType: 'project',
      subjectId: project.id,
      projectId: project.id,
      changes: createdValues(project, Object.keys(data)),
    });
    const { secret } = await issueProjectKey(tx, project, actor);
    return { project, apiKey: secret };
  });
}

export async function updateProject(deps: Deps, actor: Actor, projectId: string, input: unknown) {
  const merchant = requireActor(actor, 'merchant');
  const data = parseInput(updateProjectInput, input);
  return deps.prisma.$transaction(async (tx) => {
    const before = await findOwnedProject(tx, merchant.merchantId, projectId);
    const after = await tx.project.update({ where: { id: before.id }, data });
    await recordUpdate(tx, actor, { action: 'project.updated', subjectType: 'project', subjectId: before.id, projectId: before.id, before, after, fields: Object.keys(data) });
    return after;
  });
}

export async function createApiKey(deps: Deps, actor: Actor, projectId: string) {
  const merchant = requireActor(actor, 'merchant');
  return deps.prisma.$transaction(async (tx) => {
    const project = await findOwnedProject(tx, merchant.merchantId, projectId);
    return issueProjectKey(tx, project, actor);
  });
}

export async function revokeApiKey(deps: Deps, actor: Actor, keyId: string) {
  const merchant = requireActor(actor, 'merchant');
  if (!uuidSchema.safeParse(keyId).success) throw AppError.notFound('API key');
  const key = await deps.prisma.apiKey.findFirst({ where: { id: keyId, project: { merchantId: merchant.merchantId } } });
  if (!key) throw AppError.notFound('API key');
  if (key.revokedAt) return key;
  return writeAudited(
    deps.prisma,
    actor,
    (tx) => tx.apiKey.update({ where: { id: keyId }, data: { revokedAt: new Date() } }),
    (k) => ({ action: 'api_key.revoked', subjectType: 'api_key', subjectId: k.id, projectId: k.projectId }),
  );
}

/** Operator: suspends a project; the merchant's `active` switch cannot lift it. */
export async function suspendProject(deps: Deps, actor: Actor, projectId: string) {
  requireActor(actor, 'operator');
  if (!uuidSchema.safeParse(projectId).success) throw AppError.notFound('Project');
  const project = await deps.prisma.project.findUnique({ where: { id: projectId } });
  if (!project) throw AppError.notFound('Project');
  if (project.suspendedAt) return project;
  return writeAudited(
    deps.prisma,
    actor,
    (tx) => tx.project.update({ where: { id: projectId }, data: { suspendedAt: new Date() } }),
    (p) => ({ action: 'project.suspended', subjectType: 'project', subjectId: p.id, projectId: p.id, merchantId: p.merchantId, changes: createdValues(p, ['suspendedAt']) }),
  );
}

/** Operator: lifts an operator suspension; the merchant's own `active` switch is left as it is. */
export async function liftProjectSuspension(deps: Deps, actor: Actor, projectId: string) {
  requireActor(actor, 'operator');
  if (!uuidSchema.safeParse(projectId).success) throw AppError.notFound('Project');
  const project = await deps.prisma.project.findUnique({ where: { id: projectId } });
  if (!project) throw AppError.notFound('Project');
  if (!project.suspendedAt) return project;
  return writeAudited(
    deps.prisma,
    actor,
    (tx) => tx.project.update({ where: { id: projectId }, data: { suspendedAt: null } }),
    (p) => ({ action: 'project.suspension_lifted', subjectType: 'project', subjectId: p.id, projectId: p.id, merchantId: p.merchantId, changes: changesOf(project, p, ['suspendedAt']) }),
  );
}

const feeInput = z
  .object({ projectId: uuidSchema, bps: z.number().int().min(0).max(10_000), min: z.bigint().min(0n), max: z.bigint().min(0n) })
  .refine((f) => f.max >= f.min, { message: 'max must be at least min', path: ['max'] });

/** Operator: the project's fee, `clamp(floor(amountFinal × bps / 10,000), min, max)`. */
export async function setProjectFee(deps: Deps, actor: Actor, input: z.input<typeof feeInput>) {
  requireActor(actor, 'operator');
  const data = parseInput(feeInput, input);
  const project = await deps.prisma.project.findUnique({ where: { id: data.projectId } });
  if (!project) throw AppError.notFound('Project');
  return writeAudited(
    deps.prisma,
    actor,
    (tx) => tx.project.update({ where: { id: data.projectId }, data: { feeBps: data.bps, feeMin: data.min, feeMax: data.max } }),
    (p) => {
      const changes = changesOf(project, p, ['feeBps', 'feeMin', 'feeMax']);
      return changes && { action: 'project.fee_set', subjectType: 'project', subjectId: p.id, projectId: p.id, merchantId: p.merchantId, changes };
    },
  );
}
