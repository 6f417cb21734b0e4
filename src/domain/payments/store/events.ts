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
