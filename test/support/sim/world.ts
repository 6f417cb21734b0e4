import { gqlOk, makeMerchant, request, type TestApp } from '../harness.js';

/**
 * The simulated world: two merchants, each with a live and a sandbox project whose cards share the
 * merchant's phones (the dangerous arrangement), short deadlines so that expiry and late windows
 * happen during a run, and tiny code ranges so that amounts collide.
 */
export type SimProject = { id: string; sandbox: boolean; merchant: number; apiKey: string; keyId: string };
export type SimCard = { id: string; project: number; account: string; device: number | null; active: boolean };
export type SimDevice = { id: string; token: string; merchant: number };
export type SimPayment = { id: string; token: string; project: number; card: string; amountFinal: string; amountRequested: string };
export type SentSms = { device: number; body: string; receivedAt: string; account: string };

export type World = {
  app: TestApp;
  merchants: { id: string; key: string }[];
  projects: SimProject[];
  cards: SimCard[];
  devices: SimDevice[];
  payments: SimPayment[];
  sent: SentSms[];
  /** Deposit SMS the bank sent that never reached the gateway (yet): a dead phone, a killed app, RCS. */
  lost: SentSms[];
  balances: Map<string, bigint>;
};

async function gqlAs(app: TestApp, key: string, query: string, variables: Record<string, unknown> = {}) {
  return gqlOk(app.baseUrl, query, variables, key);
}

export async function buildWorld(app: TestApp, opts: { lateWindowSeconds: number; maxCode: number; webhookUrl: string }): Promise<World> {
  const world: World = { app, merchants: [], projects: [], cards: [], devices: [], payments: [], sent: [], lost: [], balances: new Map() };
  let account = 1_000_000_000;
  for (let m = 0; m < 2; m++) {
    // Merchant 0 has little credit: some creates meet 402.
    const made = await makeMerchant(app, { name: `Sim merchant ${m}`, credit: m === 0 ? 60_000 : 50_000_000 });
    world.merchants.push({ id: made.merchantId, key: made.merchantKey });
    for (let d = 0; d < 2; d++) {
      const dev = await gqlAs(app, made.merchantKey, `mutation { createDevice(input: { name: "Phone ${d}" }) { token device { id } } }`);
      world.devices.push({ id: dev.createDevice.device.id, token: dev.createDevice.token, merchant: m });
    }
    const phones = world.devices.map((d, i) => ({ d, i })).filter((x) => x.d.merchant === m);
    for (const sandbox of [false, true]) {
      const input = { name: `${sandbox ? 'Sandbox' : 'Live'} ${m}`, sandbox, paymentTimeLimitSeconds: 5, lateWindowSeconds: opts.lateWindowSeconds, maxCode: opts.maxCode };
      const created = await gqlAs(app, made.merchantKey, `mutation($input: CreateProjectInput!) { createProject(input: $input) { apiKey project { id } } }`, { input });
      const projectId = created.createProject.project.id as string;
      const key = await app.deps.prisma.apiKey.findFirstOrThrow({ where: { projectId }, select: { id: true } });
      world.projects.push({ id: projectId, sandbox, merchant: m, apiKey: created.createProject.apiKey, keyId: key.id });
      await gqlAs(app, made.merchantKey, `mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret } }`, { p: projectId, u: opts.webhookUrl });
      // Live: one card per phone. Sandbox: one card on the merchant's first phone (shared with live), one with no phone.
      const placements = sandbox ? [phones[0]!.i, null] : phones.map((p) => p.i);
      for (const device of placements) {
        account++;
        const card = await gqlAs(app, made.merchantKey, `mutation($input: CreateCardInput!) { createCard(input: $input) { id } }`, {
          input: {
            projectId,
            deviceId: device === null ? null : world.devices[device]!.id,
            bankCode: 'mellat',
            cardNumber: `610433${String(account).padStart(10, '0')}`,
            accountNumber: String(account),
            holderName: 'Sim',
          },
        });
        world.cards.push({ id: card.createCard.id, project: world.projects.length - 1, account: String(account), device, active: true });
      }
    }
  }
  await heartbeatAll(world);
  return world;
}

export async function heartbeatAll(world: World) {
  await Promise.all(world.devices.map((d) => request(world.app.baseUrl, 'POST', '/v1/device/heartbeat', { token: d.token })));
}
