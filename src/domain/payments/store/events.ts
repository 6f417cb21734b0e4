import type { Tx } from '../../../db/prisma.js';

export type EventRow = { id: string; projectId: string; paymentId: string; type: string };

/**
 * The event row, its payload written as the JSON text it was given: Prisma copies a JSON input into
 * plain objects, which would list the metadata's integer-like keys first (src/ordered-json.ts).
 */
export async function insertEvent(tx: Tx, e: { projectId: string; paymentId: string; type: string; payload: string }): Promise<EventRow> {
  const [event] = await tx.$queryRaw<EventRow[]>`
    INSERT INTO events (project_id, payment_id, type, payload)
    VALUES (${e.projectId}::uuid, ${e.paymentId}::uuid, ${e.type}, ${e.payload}::json)
    RETURNING id, project_id AS "projectId", payment_id AS "paymentId", type`;
  return event!;
}

/**
 * `insertEvent` for many at once (the expiry sweep's batch): one INSERT, the events numbered (`seq`)
 * in the order given; returned in that order.
 */
export async function insertEvents(tx: Tx, events: { projectId: string; paymentId: string; type: string; payload: string }[]): Promise<EventRow[]> {
  if (events.length === 0) return [];
  const rows = await tx.$queryRaw<(EventRow & { n: bigint })[]>`
    WITH input AS (
      SELECT * FROM unnest(${events.map((e) => e.projectId)}::uuid[], ${events.map((e) => e.paymentId)}::uuid[],
                           ${events.map((e) => e.type)}::text[], ${events.map((e) => e.payload)}::text[])
               WITH ORDINALITY AS i(project_id, payment_id, type, payload, n)),
    inserted AS (
      INSERT INTO events (project_id, payment_id, type, payload)
      SELECT project_id, payment_id, type, payload::json FROM input ORDER BY n
      RETURNING id, project_id, payment_id, type, seq)
    SELECT id, project_id AS "projectId", payment_id AS "paymentId", type, seq AS n FROM inserted ORDER BY seq`;
  return rows.map(({ n: _n, ...e }) => e);
}
