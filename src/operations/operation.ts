import type { z } from 'zod';
import type { Tx } from '../db/prisma.js';
import type { Refusal } from '../errors.js';
import type { Actor } from '../domain/auth/actor.js';
import type { AuditInput, AuditVia } from '../domain/audit/audit.js';
import type { Deps } from '../domain/deps.js';
import type { EventType } from '../domain/payments/types.js';

/**
 * A decision, declared as one file (docs/architecture.md "Operations: one file per decision"): its
 * phases in the order the runner (run.ts) takes them. The runner owns everything every decision
 * shares: the role check, parsing, the transaction and its retry, the idempotency key, throwing a
 * refusal and writing the audit events; a verb declares only what is its own.
 */
export type Operation<I, L, R> = {
  /** The verb, as the docs and logs name it. */
  name: string;
  /** Who may run it (`authorize` in run.ts). */
  who: Who;
  /** The body or arguments the door received (the id its path or argument names comes apart: `RawInput`). */
  input: z.ZodType<I>;
  /** The payment events its write may record (tested: test/operations/runner.test.ts). */
  emits: readonly EventType[];
  /**
   * The key space of an idempotency key sent with it, read in its transaction; by default the
   * caller's (`keyScope`: the project, the merchant key, the dashboard user).
   */
  keySpace?: (tx: Tx, id: string) => Promise<string>;
  /** Locks and reads what it decides on, in the lock order every transaction keeps; not found is thrown here. */
  load: (tx: Tx, request: Request<I>) => Promise<L>;
  /** Pure: why it is refused in the state `load` found, or null to go ahead. */
  check: (loaded: L, input: I) => Refusal | null;
  /** Writes the decision (transitions, rows, events) and says what the audit log records of it. */
  write: (tx: Tx, loaded: L, input: I, deps: Deps) => Promise<Written<R>>;
};

/**
 * `decider`: a project key (its project's), the merchant key or a dashboard user whose role decides
 * (owner, staff; with two-factor set up when the merchant requires it). `payer`: whoever holds the
 * checkout's token. `sandbox`: a sandbox project's key.
 */
export type Who = 'decider' | 'payer' | 'sandbox';

/** What a door received: the id its path or argument names (a payment, a message, a token), and the body or arguments. */
export type RawInput = { id?: string; body?: unknown };

/** What `load` is given: `id` is '' when the door names none (the body names the targets). */
export type Request<I> = { actor: Actor; id: string; input: I; deps: Deps };

/** A write's result, and the audit events the runner records with the actor and the door. */
export type Written<R> = { result: R; audit: AuditInput[] };

/**
 * The door of a call over HTTP (REST or GraphQL): a dashboard user's session is the dashboard,
 * a key the API.
 */
export function httpVia(actor: Actor): AuditVia {
  return actor.kind === 'user' ? 'dashboard' : 'api';
}
