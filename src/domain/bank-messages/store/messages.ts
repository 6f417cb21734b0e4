import type { Tx } from '../../../db/prisma.js';

/** The raw-first row of one received SMS, before any processing. */
export type ReceivedMessage = {
  merchantId: string;
  deviceId: string;
  sender: string;
  body: string;
  /** The exact original when `body` had to be escaped (issue 13), else null. */
  bodyRaw: string | null;
  bodySha256: string;
  receivedAt: Date;
};

/**
 * Inserts the message unless the device already sent this body with this receivedAt (the unique
 * index over originals): its id, or undefined when it is a repeat and nothing was written.
 */
export async function insertReceivedMessage(tx: Tx, m: ReceivedMessage): Promise<{ id: string } | undefined> {
  const [inserted] = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO bank_messages (merchant_id, device_id, sender, body, body_raw, body_sha256, received_at)
      VALUES (${m.merchantId}::uuid, ${m.deviceId}::uuid, ${m.sender}, ${m.body}, ${m.bodyRaw}, ${m.bodySha256}, ${m.receivedAt})
      ON CONFLICT (device_id, body_sha256, received_at) WHERE duplicate_of_id IS NULL AND device_id IS NOT NULL DO NOTHING
      RETURNING id`;
  return inserted;
}

/** Locks one message's row until commit; false when there is none. */
export async function lockMessageRow(tx: Tx, id: string): Promise<boolean> {
  const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM bank_messages WHERE id = ${id}::uuid FOR UPDATE`;
  return locked !== undefined;
}
