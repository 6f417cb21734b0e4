/**
 * Prisma pages from a cursor by the cursor row's position, without checking that the row is one
 * the caller may see: another project's payment id as `after:`/`before:` would answer with the
 * caller's rows around it, telling that the id exists. A cursor outside the caller's filtered set
 * therefore answers an empty page, exactly like an id that exists nowhere.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function pageWithinScope<T>(
  query: { cursor?: { id?: unknown } },
  isInScope: (id: string) => Promise<number>,
  findPage: () => Promise<T[]>,
): Promise<T[]> {
  const id = query.cursor?.id;
  if (id !== undefined && (typeof id !== 'string' || !UUID.test(id) || (await isInScope(id)) === 0)) return [];
  return findPage();
}
