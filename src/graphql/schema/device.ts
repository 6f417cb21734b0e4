import { createDevice, revokeDevice } from '../../domain/devices/devices.js';
import { isDeviceOnline } from '../../domain/devices/health.js';
import { hookUrl } from '../../domain/devices/hook-secret.js';
import { issueDeviceHook, revokeDeviceHook } from '../../domain/devices/hooks.js';
import { builder } from '../builder.js';
import { NodeRef } from './node.js';

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
      description: 'The same as lastSeenAt: every request of the device now counts, not only heartbeats.',
      deprecationReason: 'Use lastSeenAt.',
      type: 'DateTime',
      nullable: true,
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

const CreateDevicePayload = builder.objectRef<{ token: string; hookSecret: string; deviceId: string }>('CreateDevicePayload').implement({
  description: 'The new device, its token and its hook URL.',
  fields: (t) => ({
    token: t.exposeString('token', { description: 'The device token (dt_…); shown only now.' }),
    hookSecret: t.exposeString('hookSecret', { description: HOOK_SECRET_DESCRIPTION }),
    hookUrl: t.string({ description: HOOK_URL_DESCRIPTION, resolve: (p, _a, ctx) => hookUrl(ctx.deps.config.publicBaseUrl, p.hookSecret) }),
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
