const WINDOW_MS = 60_000;

/**
 * Rate limits count in fixed one-minute windows aligned to the clock: a burst that straddles the
 * turn of a minute is counted in two windows. Waits, when needed, until `needMs` fit before it.
 */
export async function clearOfWindowEdge(needMs = 10_000): Promise<void> {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < needMs) await new Promise((r) => setTimeout(r, left + 100));
}
