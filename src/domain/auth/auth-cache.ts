import type { Deps } from '../deps.js';
import type { Actor } from './actor.js';

/** What a credential resolved to: the caller, or the catalog code it is refused with. */
export type AuthOutcome = { actor: Actor } | { refused: 'unauthorized' | 'merchant_inactive' | 'project_inactive' };

// How long an outcome is trusted without a word from the database. Revocations and deactivations
// clear the cache at once through the `credential_changes` NOTIFY; this bound holds even while the
// LISTEN connection is down, so a revocation takes effect across processes within a second.
const TTL_MS = 500;
// Random tokens must not grow memory without bound: past this many entries the cache starts over.
const MAX_ENTRIES = 10_000;

type Entry = { outcome: AuthOutcome; at: number };

/**
 * Credential outcomes by hash, for one API process. A lookup that started before a clear is not
 * stored after it (`generation`), so an answer read before a revocation never outlives it.
 */
export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;

  get(hash: string, now: number): AuthOutcome | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (now - entry.at < TTL_MS) return entry.outcome;
    this.entries.delete(hash);
    return undefined;
  }

  /** Resolves through `load` when nothing fresh is cached. */
  async resolve(hash: string, load: () => Promise<AuthOutcome>): Promise<AuthOutcome> {
    const now = Date.now();
    const cached = this.get(hash, now);
    if (cached) return cached;
    const generation = this.generation;
    const outcome = await load();
    if (generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(hash, { outcome, at: now });
    }
    return outcome;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}

const caches = new WeakMap<Deps, AuthCache | null>();

/**
 * The process's cache, cleared on every credential change. Without a notifier (worker, CLI) there
 * is nothing to hear revocations with, so nothing is cached.
 */
export function authCacheOf(deps: Deps): AuthCache | null {
  let cache = caches.get(deps);
  if (cache !== undefined) return cache;
  cache = deps.notifier ? new AuthCache() : null;
  caches.set(deps, cache);
  if (cache && deps.notifier) {
    const feed = deps.notifier.feed(['credentials']);
    const owned = cache;
    void (async () => {
      for await (const _signal of feed) owned.clear();
    })();
  }
  return cache;
}

/**
 * After a change that ends or narrows a credential (a session ended, a user removed or given
 * another role), this process forgets at once what it cached; the others hear the NOTIFY.
 */
export function forgetCachedCredentials(deps: Deps): void {
  caches.get(deps)?.clear();
}
