import { statement, type Queryable } from '../../../db/statement.js';

// Run on every request whose credential the process has not cached (src/domain/auth/auth-cache.ts):
// prepared once per connection where the pool reaches PostgreSQL itself.

/** A credential and the state of everything above it, in one row (one indexed lookup by hash). */
export type CredentialRow = {
  id: string;
  merchant_id: string;
  revoked: boolean;
  merchant_active: boolean;
  project_id: string | null;
  project_active: boolean | null;
  sandbox: boolean | null;
};

const merchantKey = statement<[string], CredentialRow>(
  'auth-merchant-key',
  `SELECT k.id, k.merchant_id, k.revoked_at IS NOT NULL AS revoked, m.active AS merchant_active,
          NULL::uuid AS project_id, NULL::boolean AS project_active, NULL::boolean AS sandbox
     FROM merchant_keys k JOIN merchants m ON m.id = k.merchant_id WHERE k.key_hash = $1`,
  { prepare: true },
);
const projectKey = statement<[string], CredentialRow>(
  'auth-project-key',
  `SELECT k.id, p.merchant_id, k.revoked_at IS NOT NULL AS revoked, m.active AS merchant_active,
          p.id AS project_id, p.active AND p.suspended_at IS NULL AS project_active, p.sandbox
     FROM api_keys k JOIN projects p ON p.id = k.project_id JOIN merchants m ON m.id = p.merchant_id WHERE k.key_hash = $1`,
  { prepare: true },
);
const deviceToken = statement<[string], CredentialRow>(
  'auth-device-token',
  `SELECT d.id, d.merchant_id, d.revoked_at IS NOT NULL AS revoked, m.active AS merchant_active,
          NULL::uuid AS project_id, NULL::boolean AS project_active, NULL::boolean AS sandbox
     FROM devices d JOIN merchants m ON m.id = d.merchant_id WHERE d.token_hash = $1`,
  { prepare: true },
);

const BY_KIND = { merchant: merchantKey, project: projectKey, device: deviceToken };

export async function credentialByHash(db: Queryable, kind: keyof typeof BY_KIND, hash: string): Promise<CredentialRow | undefined> {
  const [row] = await BY_KIND[kind](db, hash);
  return row;
}
