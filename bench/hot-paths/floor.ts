/**
 * The floors: what each hot path costs with nothing but `node:http` + `pg` (no auth, no limiter,
 * no logs, no validation), so the service's figures have a "speed of the database" to be read
 * against. Run as its own process: `node --import tsx bench/hot-paths/floor.ts <databaseUrl> [--unnamed]`;
 * prints `listening <port>`.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.argv[2], max: 10 });
// `--unnamed`: through PgBouncer 1.18 in transaction mode a named prepared statement does not
// outlive its transaction, so the floor sends every statement unnamed (parsed each time), as the service does there.
const named = !process.argv.includes('--unnamed');
const nameOf = (name: string) => (named ? name : undefined);

type Row = Record<string, unknown>;
const render = (row: Row | undefined) => JSON.stringify(row ?? null, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));

function send(res: ServerResponse, status: number, body: string) {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function readJson(req: IncomingMessage): Promise<{ amount: number; projectId: string }> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as { amount: number; projectId: string };
}

/**
 * The minimal create: the least recently used card nobody holds (FOR UPDATE SKIP LOCKED; with every
 * card taken, wait for the least recently used), a payment with a random unique final amount, the
 * card stamped, in one transaction.
 */
async function create(body: { amount: number; projectId: string }): Promise<Row | undefined> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const pick = (skip: boolean) =>
      client.query<{ id: string; merchant_id: string }>({
        name: nameOf(skip ? 'floor-card-skip' : 'floor-card-wait'),
        text: `SELECT id, merchant_id FROM cards WHERE project_id = $1 AND active
               ORDER BY last_used_at ASC NULLS FIRST LIMIT 1 FOR UPDATE ${skip ? 'SKIP LOCKED' : ''}`,
        values: [body.projectId],
      });
    const card = (await pick(true)).rows[0] ?? (await pick(false)).rows[0];
    if (!card) throw new Error('no card');
    for (;;) {
      const code = 10 * randomInt(1, 10_000);
      try {
        await client.query('SAVEPOINT s');
        const { rows } = await client.query({
          name: nameOf('floor-insert'),
          text: `WITH stamp AS (UPDATE cards SET last_used_at = now() WHERE id = $2)
                 INSERT INTO payments (id, project_id, merchant_id, card_id, amount_requested, code, amount_final, amount_mode, callback_url,
                                       token, expires_at, late_until, sandbox, created_at, updated_at)
                 VALUES ($1, $3, $4, $2, $5::bigint, $6::int, $5::bigint + $6::int, 'unique_code', 'https://shop.example.com/return', $7,
                         now() + interval '15 minutes', now() + interval '75 minutes', true, now(), now())
                 RETURNING *`,
          values: [randomUUID(), card.id, body.projectId, card.merchant_id, body.amount, code, randomBytes(32).toString('base64url')],
        });
        await client.query('COMMIT');
        return rows[0];
      } catch (err) {
        // Another payment took this final amount: pick another code.
        if ((err as { code?: string }).code !== '23505') throw err;
        await client.query('ROLLBACK TO SAVEPOINT s');
      }
    }
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

const one = async (name: string, text: string, values: unknown[]) => (await pool.query<Row>({ name: nameOf(name), text, values })).rows;

const server = createServer((req, res) => {
  const url = req.url ?? '';
  const run = async (): Promise<[number, string]> => {
    if (req.method === 'POST' && url === '/v1/payments') return [201, render(await create(await readJson(req)))];
    let m = /^\/v1\/payments\/([0-9a-f-]{36})\/verify$/.exec(url);
    if (req.method === 'POST' && m) {
      const rows = await one('floor-verify', `UPDATE payments SET verify_count = verify_count + 1, updated_at = now() WHERE id = $1 RETURNING *`, [m[1]]);
      return [200, render(rows[0])];
    }
    m = /^\/v1\/payments\/([0-9a-f-]{36})$/.exec(url);
    if (m) return [200, render((await one('floor-get', 'SELECT * FROM payments WHERE id = $1', [m[1]]))[0])];
    m = /^\/v1\/checkout\/([A-Za-z0-9_-]{43})$/.exec(url);
    if (m) {
      const rows = await one(
        'floor-checkout',
        `SELECT p.*, c.card_number, c.holder_name, c.bank_code, pr.display_name, pr.name, pr.logo_url, pr.color
         FROM payments p JOIN cards c ON c.id = p.card_id JOIN projects pr ON pr.id = p.project_id WHERE p.token = $1`,
        [m[1]],
      );
      return [200, render(rows[0])];
    }
    m = /^\/v1\/payments\?project=([0-9a-f-]{36})$/.exec(url);
    if (m) {
      const rows = await one(
        'floor-list',
        'SELECT *, count(*) OVER () AS total FROM payments WHERE project_id = $1 ORDER BY created_at DESC, id DESC LIMIT 20',
        [m[1]],
      );
      return [200, render({ items: rows, total: rows[0]?.total ?? 0 } as Row)];
    }
    return [404, '{}'];
  };
  run().then(
    ([status, body]) => send(res, status, body),
    (err: unknown) => send(res, 500, JSON.stringify({ error: String(err) })),
  );
});

server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
