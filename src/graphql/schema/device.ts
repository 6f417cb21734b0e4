import { createDevice, revokeDevice } from '../../domain/devices/devices.js';
import { isDeviceOnline } from '../../domain/devices/health.js';
import { hookUrl } from '../../domain/devices/hook-secret.js';
import { HEALTH_STATES, LOW_BATTERY } from '../../domain/devices/health-state.js';
import { setupQr } from '../../domain/devices/setup-qr.js';
import { NETWORKS } from '../../domain/devices/telemetry.js';
import { issueDeviceHook, revokeDeviceHook } from '../../domain/devices/hooks.js';
import { builder } from '../builder.js';
import { NodeRef } from './node.js';

const DeviceHealth = builder.enumType('DeviceHealth', {
  description: 'A phone’s health (docs/forwarders.md "Phone health").',
  values: {
    ok: { description: 'Seen recently, forwarding, battery fine or charging.' },
    low_battery: { description: `At most ${LOW_BATTERY} % and not charging: plug it in.` },
    offline: { description: 'No heartbeat for 5 minutes (or revoked): the app was stopped, the phone is off or has no connection.' },
    silent: { description: 'Heartbeats arrive, but no bank SMS for 6 h while payments were made on its cards: SMS are not reaching the app (SIM slot, RCS, permissions).' },
  } satisfies Record<(typeof HEALTH_STATES)[number], { description: string }>,
});

const DeviceNetwork = builder.enumType('DeviceNetwork', {
  description: 'How a phone was connected at its last heartbeat that said.',
  values: { wifi: { description: 'Wi-Fi.' }, mobile: { description: 'Mobile data.' }, none: { description: 'No connection (the heartbeat was queued).' } } satisfies Record<
    (typeof NETWORKS)[number],
    { description: string }
  >,
});

builder.prismaObject('DeviceHealthEvent', {
  description: 'A change of a device’s health.',
  fields: (t) => ({
    at: t.expose('at', { description: 'When the change was noticed.', type: 'DateTime' }),
    from: t.field({ description: 'The health before.', type: DeviceHealth, resolve: (e) => e.fromHealth as (typeof HEALTH_STATES)[number] }),
    to: t.field({ description: 'The health after.', type: DeviceHealth, resolve: (e) => e.toHealth as (typeof HEALTH_STATES)[number] }),
  }),
});

builder.prismaObject('Device', {
  description: 'A phone that forwards the bank SMS of the cards it holds.',
  interfaces: [NodeRef],
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The device UUID; cards name it in deviceId.' }),
    name: t.exposeString('name', { description: 'A name for the phone.' }),
    tokenPrefix: t.exposeString('tokenPrefix', { description: 'The first characters of its token, to tell devices apart.' }),
    lastSeenAt: t.expose('lastHeartbeatAt', {
      description: 'When it last made any authenticated request (heartbeat, SMS, batch, hook URL, forwarder ping), to within a few seconds; null until its first.',
      type: 'DateTime',
      nullable: true,
    }),
    lastHeartbeatAt: t.expose('lastHeartbeatAt', {
      description: 'When it last sent a heartbeat: every authenticated request of the device counts (heartbeat, SMS, hook, forwarder ping), to within a few seconds; the same instant as lastSeenAt. No heartbeat for DEVICE_OFFLINE_SECONDS (5 minutes) is health offline.',
      type: 'DateTime',
      nullable: true,
    }),
    battery: t.exposeInt('battery', { description: 'Battery percent (0–100) from its last heartbeat that carried it; null until one did.', nullable: true }),
    charging: t.exposeBoolean('charging', { description: 'Whether it was charging, from its last heartbeat that said; null until one did.', nullable: true }),
    network: t.field({ description: 'Its connection (wifi, mobile, none) from its last heartbeat that said; null until one did.', type: DeviceNetwork, nullable: true, resolve: (d) => d.network as (typeof NETWORKS)[number] | null }),
    appVersion: t.exposeString('appVersion', { description: 'The forwarder app’s version from its last heartbeat that said; null until one did.', nullable: true }),
    health: t.field({
      description: `ok; low_battery (at most ${LOW_BATTERY} % and not charging); offline (no heartbeat for 5 minutes, or revoked); silent (heartbeats arrive, but no message from any bank sender for 6 h while payments were made on its cards). As the device-health sweep last decided (every few seconds).`,
      type: DeviceHealth,
      select: { health: true, revokedAt: true },
      resolve: (d) => (d.revokedAt ? 'offline' : (d.health as (typeof HEALTH_STATES)[number])),
    }),
    healthEvents: t.relatedConnection('healthEvents', {
      description: 'Each change of health, newest first.',
      cursor: 'id',
      query: { orderBy: [{ at: 'desc' }, { id: 'desc' }] },
    }),
    lastMessageAt: t.expose('lastMessageAt', { description: 'When it last sent a request carrying SMS (single, batch or a forwarder app’s message; a refused one counts too), to within a few seconds; null until its first.', type: 'DateTime', nullable: true }),
    online: t.boolean({
      description: 'Seen within DEVICE_OFFLINE_SECONDS (default 5 minutes) and not revoked: the same rule card choice applies, so its cards take new payments only while this is true (live projects).',
      resolve: (d, _args, ctx) => isDeviceOnline(ctx.deps, d.id),
    }),
    revoked: t.boolean({ description: 'True once revoked; its token answers 401.', select: { revokedAt: true }, resolve: (d) => d.revokedAt !== null }),
    hookSecretPrefix: t.exposeString('hookSecretPrefix', {
      description: 'The first characters of its live hook secret (dh_…), or null when it has no hook URL (revoked, or the device is).',
      nullable: true,
    }),
    createdAt: t.expose('createdAt', { description: 'When the device was created.', type: 'DateTime' }),
  }),
});

const CreateDeviceInput = builder.inputType('CreateDeviceInput', {
  description: 'A new SMS-forwarding phone.',
  fields: (t) => ({ name: t.string({ description: 'A name for the phone, e.g. the SIM’s number.', required: true }) }),
});

const HOOK_URL_DESCRIPTION =
  'The device’s secret hook URL, PUBLIC_BASE_URL/v1/device/hooks/{hookSecret}: it stands for the token for forwarder apps that cannot send an Authorization header (docs/forwarders.md); shown only now.';
const HOOK_SECRET_DESCRIPTION = 'The secret in hookUrl (dh_…), stored only as a hash; shown only now. issueDeviceHook replaces it, revokeDevice and revokeDeviceHook end it.';

const SETUP_QR_DESCRIPTION = 'An SVG QR code of hookUrl, to scan with the forwarder app (docs/forwarders.md); shown only now, like the URL.';

const CreateDevicePayload = builder.objectRef<{ token: string; hookSecret: string; deviceId: string }>('CreateDevicePayload').implement({
  description: 'The new device, its token and its hook URL.',
  fields: (t) => ({
    token: t.exposeString('token', { description: 'The device token (dt_…); shown only now.' }),
    hookSecret: t.exposeString('hookSecret', { description: HOOK_SECRET_DESCRIPTION }),
    hookUrl: t.string({ description: HOOK_URL_DESCRIPTION, resolve: (p, _a, ctx) => hookUrl(ctx.deps.config.publicBaseUrl, p.hookSecret) }),
    setupQr: t.string({ description: SETUP_QR_DESCRIPTION, resolve: (p, _a, ctx) => setupQr(hookUrl(ctx.deps.config.publicBaseUrl, p.hookSecret)) }),
    device: t.prismaField({
      description: 'The new device.',
      type: 'Device',
      resolve: (query, parent, _args, ctx) => ctx.deps.prisma.device.findUniqueOrThrow({ ...query, where: { id: parent.deviceId } }),
    }),
  }),
});

const DeviceHookPayload = builder.objectRef<{ hookSecret: string; deviceId: string }>('DeviceHookPayload').implement({
  description: 'A device’s new hook URL; the previous one no longer works.',
  fields: (t) => ({
    hookSecret: t.exposeString('hookSecret', { description: HOOK_SECRET_DESCRIPTION }),
    hookUrl: t.string({ description: HOOK_URL_DESCRIPTION, resolve: (p, _a, ctx) => hookUrl(ctx.deps.config.publicBaseUrl, p.hookSecret) }),
    setupQr: t.string({ description: SETUP_QR_DESCRIPTION, resolve: (p, _a, ctx) => setupQr(hookUrl(ctx.deps.config.publicBaseUrl, p.hookSecret)) }),
    device: t.prismaField({
      description: 'The device.',
      type: 'Device',
      resolve: (query, parent, _args, ctx) => ctx.deps.prisma.device.findUniqueOrThrow({ ...query, where: { id: parent.deviceId } }),
    }),
  }),
});

builder.mutationFields((t) => ({
  issueDeviceHook: t.field({
    description: 'Issues a new secret hook URL for a device (shown once); the old one stops working at once. A revoked device is 409 invalid_state. Merchant key.',
    type: DeviceHookPayload,
    authScopes: { merchant: true },
    args: { id: t.arg.id({ description: 'The device UUID.', required: true }) },
    resolve: async (_root, { id }, ctx) => {
      const { device, secret } = await issueDeviceHook(ctx.deps, ctx.actor, String(id));
      return { hookSecret: secret, deviceId: device.id };
    },
  }),
  revokeDeviceHook: t.prismaField({
    description: 'Ends a device’s hook URL at once (it answers 401); the device token keeps working. Merchant key.',
    type: 'Device',
    authScopes: { merchant: true },
    args: { id: t.arg.id({ description: 'The device UUID.', required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const device = await revokeDeviceHook(ctx.deps, ctx.actor, String(id));
      return ctx.deps.prisma.device.findUniqueOrThrow({ ...query, where: { id: device.id } });
    },
  }),
  createDevice: t.field({
    description: 'Registers a phone and issues its device token (shown once). At most 50 active devices per merchant: one more is 409 limit_reached. Merchant key.',
    type: CreateDevicePayload,
    authScopes: { merchant: true },
    args: { input: t.arg({ description: 'The device to create.', type: CreateDeviceInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const { device, token, hookSecret } = await createDevice(ctx.deps, ctx.actor, input);
      return { token, hookSecret, deviceId: device.id };
    },
  }),
  revokeDevice: t.prismaField({
    description: 'Revokes a device’s token and hook URL at once (a lost or dead phone). Move its cards with updateCard. Merchant key.',
    type: 'Device',
    authScopes: { merchant: true },
    args: { id: t.arg.id({ description: 'The device UUID.', required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const device = await revokeDevice(ctx.deps, ctx.actor, String(id));
      return ctx.deps.prisma.device.findUniqueOrThrow({ ...query, where: { id: device.id } });
    },
  }),
}));
