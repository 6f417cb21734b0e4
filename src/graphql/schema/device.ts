import { createDevice, revokeDevice } from '../../domain/devices/devices.js';
import { builder } from '../builder.js';

builder.prismaObject('Device', {
  description: 'A phone that forwards the bank SMS of the cards it holds.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    tokenPrefix: t.exposeString('tokenPrefix'),
    lastHeartbeatAt: t.expose('lastHeartbeatAt', { type: 'DateTime', nullable: true }),
    revoked: t.boolean({ select: { revokedAt: true }, resolve: (d) => d.revokedAt !== null }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const CreateDeviceInput = builder.inputType('CreateDeviceInput', {
  fields: (t) => ({ name: t.string({ required: true }) }),
});

const CreateDevicePayload = builder.objectRef<{ token: string; deviceId: string }>('CreateDevicePayload').implement({
  fields: (t) => ({
    token: t.exposeString('token', { description: 'The device token (dt_…); shown only now.' }),
    device: t.prismaField({
      type: 'Device',
      resolve: (query, parent, _args, ctx) => ctx.deps.prisma.device.findUniqueOrThrow({ ...query, where: { id: parent.deviceId } }),
    }),
  }),
});

builder.mutationFields((t) => ({
  createDevice: t.field({
    type: CreateDevicePayload,
    authScopes: { merchant: true },
    args: { input: t.arg({ type: CreateDeviceInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const { device, token } = await createDevice(ctx.deps, ctx.actor, input);
      return { token, deviceId: device.id };
    },
  }),
  revokeDevice: t.prismaField({
    type: 'Device',
    authScopes: { merchant: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const device = await revokeDevice(ctx.deps, ctx.actor, String(id));
      return ctx.deps.prisma.device.findUniqueOrThrow({ ...query, where: { id: device.id } });
    },
  }),
}));
