import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pressButton } from '../../src/chat-bot/decisions.js';
import { fanOutNotice, fanOutSource } from '../../src/domain/chat/fan-out.js';
import { createChatLinkCode } from '../../src/domain/chat/links.js';
import { deliverChatMessage } from '../../src/domain/chat/send.js';
import { sendDailySummaries } from '../../src/domain/chat/summary.js';
import { reportHealthChanges } from '../../src/domain/devices/health-sweep.js';
import { reportOfflineDevices } from '../../src/domain/devices/transitions.js';
import { BotApiStandIn } from '../support/bot-api.js';
import { mellatDeposit } from '../support/sms.js';
import { createPaymentRest, gql, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { addSignedInUser, errorCode, gqlAs, gqlOkAs, USERS_ENV, type SignedIn } from '../users/support.js';
import { BALE, buttonsOf, CREATE_CODE, linkChat, messageWith, MY_LINKS, TG } from './support.js';

// Chat notifications (docs/notifications.md; docs/operations.md "Chat bots (Telegram and Bale)"),
// end to end: the service with both bots pointed at a local Bot API stand-in (test/support/bot-api.ts),
// polled by this process's worker.

let app: TestApp;
let bot: BotApiStandIn;
let shop: Awaited<ReturnType<typeof makeShop>>;
let owner: SignedIn;
let staff: SignedIn;
let viewer: SignedIn;
// Chat ids: one per user, so each test reads its own.
const OWNER_CHAT = 5001;
const STAFF_CHAT = 5002;
const VIEWER_CHAT = 5003;

beforeAll(async () => {
  bot = await new BotApiStandIn().addBot(TG, 'gw_test_bot').addBot(BALE, 'gw_bale_bot').start();
  app = await startTestApp({
    env: {
      ...USERS_ENV,
      TELEGRAM_BOT_TOKEN: TG,
      TELEGRAM_API_ROOT: bot.url,
      BALE_BOT_TOKEN: BALE,
      BALE_API_ROOT: bot.url,
      CHAT_POLL_LEASE_SECONDS: '3',
      PUBLIC_BASE_URL: 'https://pay.example.com',
    },
  });
  shop = await makeShop(app);
  // makeShop names the merchant by its key only.
  shop.merchantId = (await app.deps.prisma.project.findUniqueOrThrow({ where: { id: shop.projectId } })).merchantId;
  [owner, staff, viewer] = await Promise.all([
    addSignedInUser(app, shop.merchantId, 'owner'),
    addSignedInUser(app, shop.merchantId, 'staff'),
    addSignedInUser(app, shop.merchantId, 'viewer'),
  ]);
  await Promise.all([linkChat(app, bot, owner.cookie, { id: OWNER_CHAT }), linkChat(app, bot, staff.cookie, { id: STAFF_CHAT }), linkChat(app, bot, viewer.cookie, { id: VIEWER_CHAT })]);
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await bot?.stop();
});

const simulate = (paymentId: string, outcome: string) => request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId, outcome } });

/** A payment held for review with one deposit waiting on it (base amount, no code). */
let heldAmount = 150_000;
async function heldDeposit(orderId: string) {
  // Each its own amount, so no earlier payment is a candidate too.
  heldAmount += 7_000;
  const p = (await createPaymentRest(app, shop.apiKey, { amount: heldAmount, orderId })).body;
  const sim = await simulate(p.id, 'base_amount');
  expect(sim.body.bankMessage.status).toBe('needs_review');
  return { paymentId: p.id as string, messageId: sim.body.bankMessage.id as string };
}

/** Toman in Persian digits and separators, as Intl (not the service's code) writes them. */
const faToman = (rials: bigint | string) => `${new Intl.NumberFormat('fa-IR', { useGrouping: true }).format(Number(BigInt(rials) / 10n))} تومان`;

/** The held-deposit message to a chat whose first button names this order. */
const heldMessage = (chatId: number, orderId: string) =>
  bot.waitFor(`the held deposit of ${orderId} to ${chatId}`, () => bot.messagesTo(TG, chatId).find((m) => m.text.includes('واریزی منتظر تصمیم') && buttonsOf(m).some((b) => b.text.includes(orderId))));

/** Sets what the chats of these users are told (fewer messages queue behind each other at one a second per chat). */
async function tell(users: SignedIn[], events: string[]) {
  for (const user of users) {
    const links = (await gqlOkAs(app, user.cookie, MY_LINKS)).viewer.user.chatLinks as { id: string }[];
    for (const link of links) await gqlOkAs(app, user.cookie, `mutation($id: ID!, $e: [String!]!) { updateChatLink(id: $id, input: { events: $e }) { id } }`, { id: link.id, e: events });
  }
}

describe('linking', () => {
  it('a code links a private chat once; a used, unknown or expired code gets a Persian reply and links nothing', async () => {
    const [link] = (await gqlOkAs(app, owner.cookie, MY_LINKS)).viewer.user.chatLinks;
    expect(link).toMatchObject({ platform: 'TELEGRAM', chatTitle: 'Person', events: expect.arrayContaining(['payment.confirmed', 'device.offline', 'daily.summary']) });

    const { createChatLinkCode: code } = await gqlOkAs(app, owner.cookie, CREATE_CODE, { p: 'TELEGRAM' });
    expect(code.deepLink).toBe(`https://t.me/gw_test_bot?start=${code.code}`);
    const ttl = new Date(code.expiresAt).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);
    expect(await app.deps.prisma.chatLinkCode.count({ where: { codeHash: code.code } }), 'stored hashed').toBe(0);

    bot.userSends(TG, { id: 6001 }, `/start ${code.code}`);
    expect((await bot.message(TG, 6001)).text).toContain('وصل شد');
    bot.userSends(TG, { id: 6002 }, `/start ${code.code}`);
    expect((await bot.message(TG, 6002)).text).toContain('معتبر نیست');
    bot.userSends(TG, { id: 6003 }, '/start NOSUCHCODE42');
    expect((await bot.message(TG, 6003)).text).toContain('معتبر نیست');

    const { createChatLinkCode: late } = await gqlOkAs(app, owner.cookie, CREATE_CODE, { p: 'TELEGRAM' });
    await app.deps.prisma.chatLinkCode.updateMany({ where: { usedAt: null, userId: owner.userId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    bot.userSends(TG, { id: 6004 }, `/start ${late.code}`);
    expect((await bot.message(TG, 6004)).text).toContain('معتبر نیست');

    const chats = (await app.deps.prisma.chatLink.findMany({ where: { chatId: { in: [6001n, 6002n, 6003n, 6004n] } } })).map((l) => Number(l.chatId));
    expect(chats).toEqual([6001]);
  });

  it('a group links with /start@bot CODE; Bale codes deep-link to ble.ir; links are the user’s own to change and remove', async () => {
    const group = await linkChat(app, bot, owner.cookie, { id: -100777, group: 'Shop team' });
    expect(group.link.chatTitle).toBe('Shop team');

    const { createChatLinkCode: baleCode } = await gqlOkAs(app, owner.cookie, CREATE_CODE, { p: 'BALE' });
    expect(baleCode.deepLink).toBe(`https://ble.ir/gw_bale_bot?start=${baleCode.code}`);
    // A Telegram code does not work in Bale, nor the other way round.
    const { createChatLinkCode: tgCode } = await gqlOkAs(app, owner.cookie, CREATE_CODE, { p: 'TELEGRAM' });
    bot.userSends(BALE, { id: 7001 }, `/start ${tgCode.code}`);
    expect((await bot.message(BALE, 7001)).text).toContain('معتبر نیست');
    bot.userSends(BALE, { id: 7001 }, `/start ${baleCode.code}`);
    expect((await bot.message(BALE, 7001, 2)).text).toContain('وصل شد');

    const UPDATE = `mutation($id: ID!, $e: [String!]!) { updateChatLink(id: $id, input: { events: $e }) { id events } }`;
    const updated = await gqlOkAs(app, owner.cookie, UPDATE, { id: group.link.id, e: ['payment.confirmed', 'payment.confirmed', 'daily.summary'] });
    expect(updated.updateChatLink.events).toEqual(['payment.confirmed', 'daily.summary']);
    const bad = await gqlAs(app, owner.cookie, UPDATE, { id: group.link.id, e: ['payment.nope'] });
    expect(errorCode(bad)).toBe('invalid_request');
    // Another user's link is not found, exactly like one that does not exist.
    expect(errorCode(await gqlAs(app, staff.cookie, UPDATE, { id: group.link.id, e: [] }))).toBe('not_found');
    expect(errorCode(await gqlAs(app, staff.cookie, `mutation($id: ID!) { removeChatLink(id: $id) { id } }`, { id: group.link.id }))).toBe('not_found');
    expect(errorCode(await gqlAs(app, owner.cookie, `mutation($id: ID!) { removeChatLink(id: $id) { id } }`, { id: 'nope' }))).toBe('not_found');
    // A key is not a dashboard user.
    expect((await gqlOk(app.baseUrl, `{ viewer { user { id } } }`, {}, shop.merchantKey)).viewer.user).toBeNull();
    // A platform whose bot is not set up: no code (409 invalid_state), nothing stored.
    expect((await gqlOkAs(app, owner.cookie, `{ chatPlatforms }`)).chatPlatforms).toEqual(['TELEGRAM', 'BALE']);
    const noBale = { ...app.deps, config: { ...app.deps.config, chatBots: { TELEGRAM: app.deps.config.chatBots.TELEGRAM } } };
    const codes = await app.deps.prisma.chatLinkCode.count();
    await expect(createChatLinkCode(noBale, { kind: 'user', userId: owner.userId, merchantId: shop.merchantId, role: 'owner', sessionId: null, mustSetUpTotp: false }, 'BALE')).rejects.toMatchObject({ code: 'invalid_state' });
    expect(await app.deps.prisma.chatLinkCode.count()).toBe(codes);
    expect(errorCode(await gql(app.baseUrl, `mutation { createChatLinkCode(platform: TELEGRAM) { code } }`, {}, shop.merchantKey))).toBe('unauthorized');
    const removed = await gqlOkAs(app, owner.cookie, `mutation($id: ID!) { removeChatLink(id: $id) { id chatTitle } }`, { id: group.link.id });
    expect(removed.removeChatLink).toEqual({ id: group.link.id, chatTitle: 'Shop team' });
    const left = (await gqlOkAs(app, owner.cookie, MY_LINKS)).viewer.user.chatLinks.map((l: { chatTitle: string }) => l.chatTitle);
    expect(left).not.toContain('Shop team');
  });
});

describe('notifications', () => {
  it('payment.confirmed: toman in Persian digits, Jalali time, the order id and its dashboard page, to every user’s chat', async () => {
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 1_234_560, orderId: 'ORD-CONF-1' })).body;
    await simulate(p.id, 'match');
    for (const chat of [OWNER_CHAT, STAFF_CHAT, VIEWER_CHAT]) {
      const m = await messageWith(bot, chat, 'ORD-CONF-1');
      expect(m.text).toContain('پرداخت تأیید شد');
      expect(m.text).toContain(`مبلغ: ${faToman(p.amountFinal)}`);
      expect(m.text).toMatch(/[۰-۹]{4}\/[۰-۹]{2}\/[۰-۹]{2} [۰-۹]{2}:[۰-۹]{2}/);
      expect(m.text).toContain(`https://pay.example.com/dashboard/payments/${p.id}`);
    }
    // Its job run again (a worker that died after committing): nobody is told twice.
    const event = await app.deps.prisma.event.findFirstOrThrow({ where: { paymentId: p.id, type: 'payment.confirmed' } });
    expect(await fanOutNotice(app.deps, { eventId: event.id })).toBe(0);
  });

  it('payment.review_required and bank_message.needs_review carry buttons naming the candidate’s orderId; a chat that opted out is not told', async () => {
    await gqlOkAs(app, viewer.cookie, `mutation($id: ID!) { updateChatLink(id: $id, input: { events: ["payment.confirmed"] }) { id } }`, {
      id: (await gqlOkAs(app, viewer.cookie, MY_LINKS)).viewer.user.chatLinks[0].id,
    });
    const { paymentId, messageId } = await heldDeposit('ORD-HELD-1');
    const held = await heldMessage(OWNER_CHAT, 'ORD-HELD-1');
    expect(held.text).toContain(`مبلغ: ${faToman(BigInt(heldAmount))}`);
    const { amountFinal } = await app.deps.prisma.payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect(held.text).toContain('https://pay.example.com/dashboard/review');
    expect(buttonsOf(held).map((b) => b.text)).toEqual([`پرداخت سفارش ORD-HELD-1 (${faToman(amountFinal)})`, 'نادیده گرفتن این واریز']);
    const review = await messageWith(bot, OWNER_CHAT, 'پرداخت نیاز به بررسی دارد');
    expect(review.text).toContain('ORD-HELD-1');
    expect(review.text).toContain(`/dashboard/payments/${paymentId}`);
    expect(buttonsOf(review).at(-1)!.text).toBe('بررسی لازم نیست');
    // callback_data is a random token, not the ids.
    for (const b of [...buttonsOf(held), ...buttonsOf(review)]) {
      expect(b.data).not.toContain(messageId);
      expect(b.data).not.toContain(paymentId);
      expect(b.data.length).toBeLessThanOrEqual(64);
    }
    await messageWith(bot, STAFF_CHAT, 'ORD-HELD-1');
    // The viewer chose payment.confirmed only: the payment's confirmation (the last of this test's events) comes, the review does not.
    await simulate(paymentId, 'match');
    await bot.waitFor('the confirmation', () => bot.messagesTo(TG, VIEWER_CHAT).find((m) => m.text.includes('پرداخت تأیید شد') && m.text.includes('ORD-HELD-1')));
    expect(bot.messagesTo(TG, VIEWER_CHAT).some((m) => m.text.includes('واریزی منتظر تصمیم') && m.text.includes('ORD-HELD-1'))).toBe(false);
  });

  it('device.low_battery and device.offline from the workers’ health sweeps; device.silent rendered and sent', async () => {
    const live = await makeShop(app, { sandbox: false, merchantKey: shop.merchantKey });
    const device = await app.deps.prisma.device.findUniqueOrThrow({ where: { id: live.deviceId! } });
    expect((await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: live.deviceToken, body: { battery: 9, charging: false } })).status).toBeLessThan(300);
    await reportHealthChanges(app.deps);
    expect((await messageWith(bot, STAFF_CHAT, `باتری گوشی «${device.name}» کم است`)).text).toContain('باتری: ۹٪');

    // Silent past the offline threshold: the sweep the device-health job runs.
    await app.deps.prisma.device.update({ where: { id: device.id }, data: { lastHeartbeatAt: new Date(Date.now() - 3_600_000) } });
    expect(await reportOfflineDevices(app.deps)).toBeGreaterThanOrEqual(1);
    const offline = await messageWith(bot, OWNER_CHAT, `گوشی «${device.name}» قطع شده است`);
    expect(offline.text).toContain('https://pay.example.com/dashboard/devices');

    // device.silent needs six hours without a bank SMS while payments were made: its message, through the same fan-out.
    await fanOutSource(app.deps, device.merchantId, { type: 'device.silent', payload: { lastBankMessageAt: null }, createdAt: new Date(), deviceId: device.id });
    expect((await messageWith(bot, STAFF_CHAT, 'پیامکی از بانک نمی‌فرستد')).text).toContain('/dashboard/devices');
  });

  it('the daily summary: the day’s confirmed payments in toman and what waits, once a day per chat', async () => {
    const now = new Date();
    const queued = await sendDailySummaries(app.deps, now);
    expect(queued).toBeGreaterThanOrEqual(2);
    expect(await sendDailySummaries(app.deps, now), 'once a day').toBe(0);
    const summary = await messageWith(bot, OWNER_CHAT, 'خلاصهٔ امروز');
    expect(summary.text).toContain('پرداخت‌های تأییدشده');
    expect(summary.text).toContain('منتظر تصمیم شما');
    expect(summary.text).toContain('https://pay.example.com/dashboard');
  });
});

describe('buttons', () => {
  beforeAll(() => tell([owner, staff, viewer], ['bank_message.needs_review']));

  it('a staff press attaches as that user, audited via telegram, the message edited; a second press is already decided; a viewer is not allowed; a tampered token does nothing', async () => {
    const { paymentId, messageId } = await heldDeposit('ORD-BTN-1');
    const viewerMsg = await heldMessage(VIEWER_CHAT, 'ORD-BTN-1');
    const refused = bot.press(TG, viewerMsg, buttonsOf(viewerMsg)[0]!.data);
    expect((await bot.answer(TG, refused)).text).toContain('اجازه');
    const tampered = bot.press(TG, viewerMsg, buttonsOf(viewerMsg)[0]!.data.slice(0, -2) + 'xx');
    expect((await bot.answer(TG, tampered)).text).toContain('معتبر نیست');
    // Another chat's button pressed here (its token copied) does nothing either.
    const staffMsg = await heldMessage(STAFF_CHAT, 'ORD-BTN-1');
    const stolen = bot.press(TG, viewerMsg, buttonsOf(staffMsg)[0]!.data);
    expect((await bot.answer(TG, stolen)).text).toContain('معتبر نیست');
    expect((await app.deps.prisma.payment.findUniqueOrThrow({ where: { id: paymentId } })).status).toBe('pending');

    const attachToken = buttonsOf(staffMsg)[0]!.data;
    const pressed = bot.press(TG, staffMsg, attachToken);
    expect((await bot.answer(TG, pressed)).text).toContain('ORD-BTN-1');
    const payment = await app.deps.prisma.payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect(payment).toMatchObject({ status: 'confirmed', confirmationSource: 'manual', confirmedByMessageId: messageId });
    const audit = await app.deps.prisma.auditEvent.findMany({ where: { subjectId: { in: [paymentId, messageId] } } });
    expect(audit.length).toBeGreaterThanOrEqual(2);
    for (const a of audit) expect(a).toMatchObject({ via: 'telegram', actorKind: 'user', actorId: staff.userId });
    const edited = await bot.waitFor('the edit', () => staffMsg.edits.at(-1));
    expect(edited.text).toContain('پرداخت تأیید شد');
    expect(edited.text).toContain(staff.email);
    expect(staffMsg.reply_markup, 'buttons gone').toBeUndefined();

    const again = bot.press(TG, staffMsg, attachToken);
    expect((await bot.answer(TG, again)).text).toContain('قبلاً تصمیم');
    // The owner's old message about the same deposit, decided elsewhere, says so.
    const ownerMsg = await heldMessage(OWNER_CHAT, 'ORD-BTN-1');
    const late = bot.press(TG, ownerMsg, buttonsOf(ownerMsg)[1]!.data);
    expect((await bot.answer(TG, late)).text).toContain('قبلاً تصمیم');
    expect((await bot.waitFor('owner edit', () => ownerMsg.edits.at(-1))).text).toContain('جای دیگری تصمیم گرفته شد');
    expect(await app.deps.prisma.auditEvent.count({ where: { subjectId: messageId, action: 'bank_message.attached' } })).toBe(1);
  });

  it('a group linked by a viewer and a staff member is told once, its buttons acting as the staff member; its daily summary once', async () => {
    const GROUP = -100999;
    const viewerLink = await linkChat(app, bot, viewer.cookie, { id: GROUP, group: 'Counter' });
    const staffLink = await linkChat(app, bot, staff.cookie, { id: GROUP, group: 'Counter' });
    const groupLinks = [viewerLink.link.id, staffLink.link.id];
    const { paymentId, messageId } = await heldDeposit('ORD-GROUP-1');
    const msg = await heldMessage(GROUP, 'ORD-GROUP-1');
    // One notice for the group, through the staff member's link (the stronger role), though the viewer linked it first.
    const event = await app.deps.prisma.event.findFirstOrThrow({ where: { bankMessageId: messageId, type: 'bank_message.needs_review' } });
    const notices = await app.deps.prisma.chatNotice.findMany({ where: { sourceId: event.id, linkId: { in: groupLinks } } });
    expect(notices.map((n) => n.linkId)).toEqual([staffLink.link.id]);
    const pressed = bot.press(TG, msg, buttonsOf(msg)[0]!.data);
    expect((await bot.answer(TG, pressed)).text).toContain('ORD-GROUP-1');
    expect(await app.deps.prisma.payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({ status: 'confirmed', confirmationSource: 'manual' });
    const audit = await app.deps.prisma.auditEvent.findFirstOrThrow({ where: { subjectId: messageId, action: 'bank_message.attached' } });
    expect(audit).toMatchObject({ via: 'telegram', actorId: staff.userId });
    const held = await app.deps.pool.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'chat-send' AND data->>'linkId' = ANY($1) AND data->>'promptId' IS NOT NULL AND data->>'text' LIKE '%ORD-GROUP-1%'`, [groupLinks]);
    expect(held.rows[0].n, 'one message with buttons for the group').toBe(1);

    // The day's summary: one for the group, both links marked as told.
    await app.deps.prisma.chatLink.updateMany({ where: { id: { in: groupLinks } }, data: { summaryDay: null } });
    await sendDailySummaries(app.deps, new Date());
    await messageWith(bot, GROUP, 'خلاصهٔ امروز');
    const jobs = await app.deps.pool.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'chat-send' AND data->>'linkId' = ANY($1) AND data->>'text' LIKE '%خلاصهٔ امروز%'`, [groupLinks]);
    expect(jobs.rows[0].n).toBe(1);
    expect((await app.deps.prisma.chatLink.findMany({ where: { id: { in: groupLinks } } })).map((l) => l.summaryDay)).toEqual([expect.any(String), expect.any(String)]);
  });

  it('a double press at once decides once; a dismiss from the dashboard makes the chat’s button say so', async () => {
    const { messageId } = await heldDeposit('ORD-TWICE');
    const msg = await heldMessage(OWNER_CHAT, 'ORD-TWICE');
    const dismiss = buttonsOf(msg)[1]!.data;
    // Two presses at once (the poller hands updates one by one, so straight to the press handler).
    const answers = (await Promise.all([pressButton(app.deps, 'TELEGRAM', { token: dismiss, chatId: OWNER_CHAT }), pressButton(app.deps, 'TELEGRAM', { token: dismiss, chatId: OWNER_CHAT })])).map((a) => a.answer);
    expect(answers.filter((t) => t?.includes('نادیده گرفته شد')), answers.join(' | ')).toHaveLength(1);
    expect(answers.filter((t) => t?.includes('قبلاً تصمیم'))).toHaveLength(1);
    // Pressed again from the chat: already decided.
    const third = bot.press(TG, msg, dismiss);
    expect((await bot.answer(TG, third)).text).toContain('قبلاً تصمیم');
    expect(await app.deps.prisma.auditEvent.count({ where: { subjectId: messageId, action: 'bank_message.dismissed', via: 'telegram' } })).toBe(1);

    const other = await heldDeposit('ORD-ELSEWHERE');
    const otherMsg = await heldMessage(OWNER_CHAT, 'ORD-ELSEWHERE');
    await gqlOk(app.baseUrl, `mutation($id: ID!) { dismissBankMessage(id: $id, note: "dup") { id } }`, { id: other.messageId }, shop.apiKey);
    const pressed = bot.press(TG, otherMsg, buttonsOf(otherMsg)[0]!.data);
    expect((await bot.answer(TG, pressed)).text).toContain('قبلاً تصمیم');
    expect((await app.deps.prisma.payment.findUniqueOrThrow({ where: { id: other.paymentId } })).status).toBe('pending');
  });
  it('a payment’s review is dismissed from its message, as the user, via telegram', async () => {
    await tell([staff], ['payment.review_required']);
    const { paymentId } = await heldDeposit('ORD-REVIEW-BTN');
    const msg = await bot.waitFor('the review message', () => bot.messagesTo(TG, STAFF_CHAT).find((m) => m.text.includes('پرداخت نیاز به بررسی دارد') && m.text.includes('ORD-REVIEW-BTN')));
    const buttons = buttonsOf(msg);
    expect(buttons[0]!.text).toMatch(/^واریز .+ تومان — [۰-۹]{2}:[۰-۹]{2}$/);
    const pressed = bot.press(TG, msg, buttons.at(-1)!.data);
    expect((await bot.answer(TG, pressed)).text).toContain('بررسی این پرداخت لازم نبود');
    expect(await app.deps.prisma.payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({ reviewRequired: false, status: 'pending' });
    expect(await app.deps.prisma.auditEvent.findFirstOrThrow({ where: { subjectId: paymentId, action: 'payment.review_dismissed' } })).toMatchObject({ via: 'telegram', actorId: staff.userId });
  });
});

describe('balance gaps', () => {
  it('card.balance_gap names its candidates; a press resolves the gap with that payment as the user, via bale', async () => {
    const ACCOUNT = '1234567890';
    const MINUTE = 60_000;
    const gapShop = await makeShop(app, { sandbox: false, credit: 1_000_000, card: { accountNumber: ACCOUNT } });
    gapShop.merchantId = (await app.deps.prisma.project.findUniqueOrThrow({ where: { id: gapShop.projectId } })).merchantId;
    const gapStaff = await addSignedInUser(app, gapShop.merchantId, 'staff');
    const BALE_CHAT = 9101;
    await linkChat(app, bot, gapStaff.cookie, { id: BALE_CHAT }, BALE);
    const send = (body: string) => request(app.baseUrl, 'POST', '/v1/device/messages', { token: gapShop.deviceToken, body: { sender: 'BankMellat', body, receivedAt: new Date().toISOString() } });
    const lost = (await createPaymentRest(app, gapShop.apiKey, { amount: 431_000, orderId: 'ORD-LOST' })).body;
    const next = (await createPaymentRest(app, gapShop.apiKey, { amount: 432_000, orderId: 'ORD-NEXT' })).body;
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    const reference = 8_000_000n;
    expect((await send(mellatDeposit({ account: ACCOUNT, amount: 55_000, balance: reference, at: new Date(now - 3 * MINUTE) }))).body.status).toBe('unmatched');
    const afterNext = reference + BigInt(lost.amountFinal) + BigInt(next.amountFinal);
    // The lost payment's SMS never comes; the next one's shows the balance with it.
    expect((await send(mellatDeposit({ account: ACCOUNT, amount: next.amountFinal, balance: afterNext, at: new Date(now) }))).body.status).toBe('needs_review');

    const gapMsg = await bot.waitFor('the gap message', () => bot.messagesTo(BALE, BALE_CHAT).find((m) => m.text.includes('با پیامک‌ها نمی‌خواند')));
    expect(gapMsg.text).toContain(`پولی که پیامکش نرسیده: ${faToman(lost.amountFinal)}`);
    expect(gapMsg.text).toContain('https://pay.example.com/dashboard/review');
    const [resolve] = buttonsOf(gapMsg);
    expect(resolve!.text).toBe(`پول سفارش ORD-LOST بود (${faToman(lost.amountFinal)})`);
    const pressed = bot.press(BALE, gapMsg, resolve!.data);
    expect((await bot.answer(BALE, pressed)).text).toContain('ORD-LOST');
    const gap = await app.deps.prisma.balanceGap.findFirstOrThrow({ where: { cardId: gapShop.cardId } });
    expect(gap).toMatchObject({ status: 'resolved', resolvedPaymentId: lost.id });
    expect(await app.deps.prisma.payment.findUniqueOrThrow({ where: { id: lost.id } })).toMatchObject({ status: 'confirmed', confirmationSource: 'manual' });
    const audit = await app.deps.prisma.auditEvent.findMany({ where: { subjectId: { in: [gap.id, lost.id] } } });
    expect(audit.length).toBeGreaterThanOrEqual(1);
    for (const a of audit) expect(a).toMatchObject({ via: 'bale', actorKind: 'user', actorId: gapStaff.userId });
    expect((await bot.waitFor('the edit', () => gapMsg.edits.at(-1))).text).toContain(gapStaff.email);
    const again = bot.press(BALE, gapMsg, resolve!.data);
    expect((await bot.answer(BALE, again)).text).toContain('قبلاً تصمیم');
  });
});

describe('delivery', () => {
  beforeAll(() => tell([owner, staff, viewer], []));

  it('a 429 waits its retry_after; messages to one chat are spaced; other failures are tried 10 times; a 403 unlinks the chat', async () => {
    const { link } = await linkChat(app, bot, owner.cookie, { id: 8001 });
    await gqlOkAs(app, owner.cookie, `mutation($id: ID!) { updateChatLink(id: $id, input: { events: ["payment.confirmed"] }) { id } }`, { id: link.id });
    const since = Date.now();
    bot.failNext('sendMessage', { code: 429, retryAfter: 1, chatId: 8001 });
    for (const order of ['ORD-RATE-1', 'ORD-RATE-2', 'ORD-RATE-3']) {
      const p = (await createPaymentRest(app, shop.apiKey, { amount: 120_000, orderId: order })).body;
      await simulate(p.id, 'match');
    }
    // The link's own reply, then the three.
    await bot.message(TG, 8001, 4, 20_000);
    const calls = bot.calls.filter((c) => c.method === 'sendMessage' && Number(c.body.chat_id) === 8001 && c.at >= since);
    expect(calls.length).toBe(4);
    // The refused try, then nothing to this chat for its retry_after.
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(950);
    // A burst is spread out, not sent at once.
    for (let i = 2; i < calls.length; i++) expect(calls[i]!.at - calls[i - 1]!.at).toBeGreaterThanOrEqual(500);

    // Other failures are tried again, 10 tries in all: the 9th failed try queues a 10th, the 10th drops the message
    // (straight to the send, its chat slot taken as reserved: the spacing is shown above).
    bot.failNext('sendMessage', { code: 500, chatId: 8001, times: 2 });
    expect(await deliverChatMessage(app.deps, { linkId: link.id, text: 'try 9', attempt: 9, slotReserved: true })).toBe('retrying');
    expect(await deliverChatMessage(app.deps, { linkId: link.id, text: 'try 10', attempt: 10, slotReserved: true })).toBe('dropped');
    expect(bot.calls.filter((c) => c.body.text === 'try 9' || c.body.text === 'try 10')).toHaveLength(2);
    const queued = await app.deps.prisma.$queryRaw<{ text: string; attempt: number }[]>`
      SELECT data->>'text' AS text, (data->>'attempt')::int AS attempt FROM pgboss.job WHERE name = 'chat-send' AND data->>'text' IN ('try 9', 'try 10')`;
    expect(queued).toEqual([{ text: 'try 9', attempt: 10 }]);

    bot.failNext('sendMessage', { code: 403, chatId: 8001 });
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 130_000, orderId: 'ORD-BLOCKED' })).body;
    await simulate(p.id, 'match');
    for (const until = Date.now() + 15_000; ; ) {
      if ((await app.deps.prisma.chatLink.count({ where: { chatId: 8001n } })) === 0) break;
      if (Date.now() > until) throw new Error('the blocked chat is still linked');
      await new Promise((r) => setTimeout(r, 50));
    }
  });
});
