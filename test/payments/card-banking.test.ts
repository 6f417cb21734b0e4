import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardNumberSchema, isValidCardNumber } from '../../src/domain/banking/card-number.js';
import { isValidSheba, shebaSchema } from '../../src/domain/banking/sheba.js';
import { gql, gqlOk, makeShop, startTestApp, type TestApp } from '../support/harness.js';

// schema.graphql `CreateCardInput.sheba`: a card may carry its account's sheba (IR + 24 digits,
// ISO 13616 check digits, else 400 naming sheba). The Luhn check is for cards someone is paid back
// to (refunds).
const SHEBA = 'IR062960000000100324200001';

describe('isValidSheba', () => {
  it.each([SHEBA, 'IR820540102680020817909002', 'IR490170000000001234567890'])('takes %s', (s) => {
    expect(isValidSheba(s)).toBe(true);
  });

  it.each([
    ['wrong check digits', 'IR072960000000100324200001'],
    ['two digits swapped', 'IR062960000000100324200010'],
    ['a digit short', 'IR06296000000010032420000'],
    ['a digit over', 'IR0629600000001003242000011'],
    ['another country', 'DE062960000000100324200001'],
    ['lower case', 'ir062960000000100324200001'],
    ['spaces', 'IR06 2960 0000 0010 0324 2000 01'],
  ])('refuses %s', (_why, s) => {
    expect(isValidSheba(s)).toBe(false);
  });

  it('reads spaces, dashes, Persian digits and a lower-case ir when parsing', () => {
    expect(shebaSchema.parse('ir06 2960-0000 0010 0324 2000 01')).toBe(SHEBA);
    expect(shebaSchema.parse('IR۰۶۲۹۶۰۰۰۰۰۰۰۱۰۰۳۲۴۲۰۰۰۰۱')).toBe(SHEBA);
    expect(shebaSchema.safeParse('IR072960000000100324200001').success).toBe(false);
  });
});

describe('isValidCardNumber (Luhn)', () => {
  it.each(['4111111111111111', '5555555555554444', '6037997599999993'])('takes %s', (n) => {
    expect(isValidCardNumber(n)).toBe(true);
  });

  it.each(['4111111111111112', '6037997599999999', '411111111111111', '41111111111111111', '411111111111111a'])('refuses %s', (n) => {
    expect(isValidCardNumber(n)).toBe(false);
  });

  it('reads spaces, dashes and Persian digits when parsing', () => {
    expect(cardNumberSchema.parse('4111 1111-1111 1111')).toBe('4111111111111111');
    expect(cardNumberSchema.parse('۴۱۱۱۱۱۱۱۱۱۱۱۱۱۱۱')).toBe('4111111111111111');
    expect(cardNumberSchema.safeParse('4111 1111 1111 1112').success).toBe(false);
  });
});

describe('a card’s sheba through GraphQL', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.stop());

  const CREATE = `mutation($input: CreateCardInput!) { createCard(input: $input) { id sheba } }`;
  const UPDATE = `mutation($id: ID!, $input: UpdateCardInput!) { updateCard(id: $id, input: $input) { sheba } }`;
  const card = (shop: { projectId: string }, extra: Record<string, unknown>) => ({
    input: { projectId: shop.projectId, bankCode: 'saman', cardNumber: '6219861012345678', holderName: 'B', ...extra },
  });

  it('stores a valid sheba as IR + 24 Latin digits and shows it on the Card', async () => {
    const shop = await makeShop(app);
    const created = await gqlOk(app.baseUrl, CREATE, card(shop, { sheba: 'ir06 2960 0000 0010 0324 2000 01' }), shop.merchantKey);
    expect(created.createCard.sheba).toBe(SHEBA);
    const plain = await gqlOk(app.baseUrl, CREATE, card(shop, {}), shop.merchantKey);
    expect(plain.createCard.sheba).toBeNull();
  });

  it('refuses a sheba with wrong check digits, naming sheba, on create and on update', async () => {
    const shop = await makeShop(app);
    const bad = await gql(app.baseUrl, CREATE, card(shop, { sheba: 'IR072960000000100324200001' }), shop.merchantKey);
    expect(bad.errors?.[0]?.extensions.code).toBe('invalid_request');
    expect(bad.errors?.[0]?.extensions.details.fields.map((f: { field: string }) => f.field)).toEqual(['sheba']);
    const update = await gql(app.baseUrl, UPDATE, { id: shop.cardId, input: { sheba: 'IR0629600000001003242000' } }, shop.merchantKey);
    expect(update.errors?.[0]?.extensions.details.fields.map((f: { field: string }) => f.field)).toEqual(['sheba']);
    expect((await app.deps.prisma.card.findUniqueOrThrow({ where: { id: shop.cardId } })).sheba).toBeNull();
  });

  it('sets and clears it with updateCard', async () => {
    const shop = await makeShop(app);
    expect((await gqlOk(app.baseUrl, UPDATE, { id: shop.cardId, input: { sheba: SHEBA } }, shop.merchantKey)).updateCard.sheba).toBe(SHEBA);
    expect((await gqlOk(app.baseUrl, UPDATE, { id: shop.cardId, input: { sheba: null } }, shop.merchantKey)).updateCard.sheba).toBeNull();
  });

  it('is refused by the database too, whatever the door', async () => {
    const shop = await makeShop(app);
    const client = new pg.Client({ connectionString: app.databaseUrl });
    await client.connect();
    try {
      await expect(client.query('UPDATE cards SET sheba = $1 WHERE id = $2', ['IR072960000000100324200001', shop.cardId])).rejects.toThrow(/cards_sheba_valid/);
      await expect(client.query('UPDATE cards SET sheba = $1 WHERE id = $2', ['IR06296000000010032420000X', shop.cardId])).rejects.toThrow(/cards_sheba_valid/);
      await client.query('UPDATE cards SET sheba = $1 WHERE id = $2', [SHEBA, shop.cardId]);
    } finally {
      await client.end();
    }
  });
});
