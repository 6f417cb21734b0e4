import type { UserRole } from '../../domain/auth/roles.js';
import { sessionEndsAt } from '../../domain/users/session-rules.js';
import { changePassword, listSessions, revokeSession, type SessionWithUser } from '../../domain/users/sessions.js';
import { confirmTotp, disableTotp, enableTotp, type TotpSetup } from '../../domain/users/totp.js';
import { inviteUser, listUsers, removeUser, resetUserPassword, updateUser, type NewUser } from '../../domain/users/users.js';
import type { User } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';

const UserRoleEnum = builder.enumType('UserRole', {
  description: 'What a dashboard user may do. Every role reads everything of the merchant and exports.',
  values: {
    owner: { description: 'Everything the merchant key can do, plus users and their sessions.' },
    staff: { description: 'Reads, and decides exceptions: attach, confirm by hand, reject, dismiss, refunds.' },
    viewer: { description: 'Reads and exports only.' },
  } satisfies Record<UserRole, { description: string }>,
});

export const UserRef = builder.objectRef<User>('User').implement({
  description: 'A person who signs in to the dashboard, with a role in one merchant.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The user UUID.' }),
    email: t.exposeString('email', { description: 'The sign-in email, in lower case.' }),
    role: t.field({ description: 'What the user may do.', type: UserRoleEnum, resolve: (u) => u.role as UserRole }),
    passwordSet: t.boolean({ description: 'False until the user followed their set-password link.', resolve: (u) => u.passwordHash !== null }),
    totpEnabled: t.boolean({
      description: 'Two-factor sign-in is on (confirmTotp): signing in needs a code from the authenticator app, or a recovery code.',
      resolve: (u) => u.totpEnabledAt !== null,
    }),
    createdAt: t.expose('createdAt', { description: 'When the user was added.', type: 'DateTime' }),
  }),
});

const SessionRef = builder.objectRef<SessionWithUser>('Session').implement({
  description: 'A signed-in browser: ends 12 hours after its last request, 7 days after sign-in at most, or when revoked.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The session UUID (not its token, which only the cookie holds).' }),
    user: t.field({ description: 'Whose session it is.', type: UserRef, resolve: (s) => s.user }),
    current: t.boolean({ description: 'True for the session making this request.', resolve: (s, _args, ctx) => ctx.actor.kind === 'user' && ctx.actor.sessionId === s.id }),
    createdAt: t.expose('createdAt', { description: 'When the user signed in.', type: 'DateTime' }),
    lastSeenAt: t.expose('lastSeenAt', { description: 'Its last request, to within a minute.', type: 'DateTime' }),
    expiresAt: t.field({ description: 'When it ends if nothing else happens: 12 hours after lastSeenAt, or its 7-day end if sooner.', type: 'DateTime', resolve: (s) => sessionEndsAt(s) }),
    revokedAt: t.expose('revokedAt', { description: 'When it was ended (sign-out, revokeSession, a password change); null while live.', type: 'DateTime', nullable: true }),
    userAgent: t.exposeString('userAgent', { description: 'The browser’s User-Agent at sign-in.', nullable: true }),
    ip: t.exposeString('ip', { description: 'The client address at sign-in.', nullable: true }),
  }),
});

const UserLinkPayload = builder.objectRef<NewUser>('UserLinkPayload').implement({
  description: 'A user and a one-time set-password link (24 hours); the link is shown only now.',
  fields: (t) => ({
    user: t.field({ description: 'The user.', type: UserRef, resolve: (p) => p.user }),
    setPasswordUrl: t.exposeString('setPasswordUrl', { description: 'PUBLIC_BASE_URL/dashboard/set-password?token=…: send it to the user; it works once, for 24 hours.' }),
  }),
});

const UpdateUserInput = builder.inputType('UpdateUserInput', {
  description: 'Only the fields given change.',
  fields: (t) => ({ role: t.field({ description: 'A new role. The last owner cannot be given another.', type: UserRoleEnum }) }),
});

const TotpSetupRef = builder.objectRef<TotpSetup>('TotpSetup').implement({
  description: 'A pending two-factor set-up: not on until confirmTotp is given a code from it.',
  fields: (t) => ({
    secret: t.exposeString('secret', { description: 'The TOTP secret, base32 (RFC 4648), for typing into an authenticator app by hand.' }),
    otpauthUrl: t.exposeString('otpauthUrl', { description: 'otpauth://totp/… (SHA-1, 6 digits, 30 seconds): show it as a QR code for the authenticator app.' }),
  }),
});

const TotpRecoveryCodesRef = builder.objectRef<{ recoveryCodes: string[] }>('TotpRecoveryCodes').implement({
  description: 'Two-factor is on. The recovery codes are shown only now.',
  fields: (t) => ({
    recoveryCodes: t.exposeStringList('recoveryCodes', {
      description: 'Ten one-time codes (xxxxx-xxxxx), each usable once in place of an authenticator code (sign-in, disableTotp). Keep them apart from the phone.',
    }),
  }),
});

builder.queryFields((t) => ({
  users: t.field({
    description: 'The merchant’s dashboard users, oldest first. Any merchant credential.',
    type: [UserRef],
    authScopes: { merchant: true },
    resolve: (_root, _args, ctx) => listUsers(ctx.deps, ctx.actor),
  }),
  sessions: t.field({
    description: 'Live dashboard sessions, newest first: the caller’s own, or with allUsers (owners only) every user’s of the merchant. Dashboard session.',
    type: [SessionRef],
    authScopes: { user: true },
    args: { allUsers: t.arg.boolean({ description: 'Every user’s sessions, not only the caller’s (owners only; others get forbidden).' }) },
    resolve: (_root, { allUsers }, ctx) => listSessions(ctx.deps, ctx.actor, { allUsers }),
  }),
}));

builder.mutationFields((t) => ({
  inviteUser: t.field({
    description: 'Adds a dashboard user to the merchant and returns their one-time set-password link (shown once, 24 hours). Owners only.',
    type: UserLinkPayload,
    authScopes: { user: true },
    args: {
      email: t.arg.string({ description: 'The user’s email: their sign-in name, unique across the gateway.', required: true }),
      role: t.arg({ description: 'What the user may do.', type: UserRoleEnum, required: true }),
    },
    resolve: (_root, args, ctx) => inviteUser(ctx.deps, ctx.actor, args),
  }),
  updateUser: t.field({
    description: 'Changes a user’s role; their sessions keep working with the new role at once. The last owner stays an owner (409 invalid_state). Owners only.',
    type: UserRef,
    authScopes: { user: true },
    args: {
      id: t.arg.id({ description: 'The user UUID.', required: true }),
      input: t.arg({ description: 'What to change.', type: UpdateUserInput, required: true }),
    },
    resolve: (_root, { id, input }, ctx) => updateUser(ctx.deps, ctx.actor, String(id), input),
  }),
  removeUser: t.field({
    description: 'Removes a user: their sessions and links end at once. The last owner cannot be removed (409 invalid_state). Returns the user as it was. Owners only.',
    type: UserRef,
    authScopes: { user: true },
    args: { id: t.arg.id({ description: 'The user UUID.', required: true }) },
    resolve: (_root, { id }, ctx) => removeUser(ctx.deps, ctx.actor, String(id)),
  }),
  resetUserPassword: t.field({
    description: 'A new one-time set-password link for a user (a forgotten password); earlier links stop working. Shown once. Owners only.',
    type: UserLinkPayload,
    authScopes: { user: true },
    args: { id: t.arg.id({ description: 'The user UUID.', required: true }) },
    resolve: (_root, { id }, ctx) => resetUserPassword(ctx.deps, ctx.actor, String(id)),
  }),
  revokeSession: t.field({
    description: 'Ends a session at once (its cookie answers 401 from then on): one’s own, or as an owner any of the merchant’s users’. Dashboard session.',
    type: SessionRef,
    authScopes: { user: true },
    args: { id: t.arg.id({ description: 'The session UUID (from sessions).', required: true }) },
    resolve: (_root, { id }, ctx) => revokeSession(ctx.deps, ctx.actor, String(id)),
  }),
  enableTotp: t.field({
    description:
      'Starts setting up two-factor sign-in for the signed-in user: a new secret, not on until confirmTotp; calling it again replaces the pending secret. Two-factor already on: 409 invalid_state (turn it off first). Dashboard session.',
    type: TotpSetupRef,
    authScopes: { user: true },
    resolve: (_root, _args, ctx) => enableTotp(ctx.deps, ctx.actor),
  }),
  confirmTotp: t.field({
    description:
      'Turns two-factor on with the authenticator’s current code (a wrong one: 400 invalid_request naming code, counted like a failed sign-in) and returns ten recovery codes, shown only now. From then on POST /v1/session needs totp. Dashboard session.',
    type: TotpRecoveryCodesRef,
    authScopes: { user: true },
    args: { code: t.arg.string({ description: 'The 6-digit code the authenticator app shows now.', required: true }) },
    resolve: (_root, { code }, ctx) => confirmTotp(ctx.deps, ctx.actor, { code }),
  }),
  disableTotp: t.field({
    description:
      'Turns the signed-in user’s two-factor off, with a current code or an unused recovery code (a wrong one: 400 invalid_request naming code, counted like a failed sign-in); the recovery codes end with it. Returns the user. Dashboard session.',
    type: UserRef,
    authScopes: { user: true },
    args: { code: t.arg.string({ description: 'The authenticator’s current code, or a recovery code.', required: true }) },
    resolve: (_root, { code }, ctx) => disableTotp(ctx.deps, ctx.actor, { code }),
  }),
  changePassword: t.field({
    description: 'The signed-in user’s new password (10 characters at least); the current one is required. Every other session of the user ends. Dashboard session.',
    type: 'Boolean',
    authScopes: { user: true },
    args: {
      currentPassword: t.arg.string({ description: 'The password now.', required: true }),
      newPassword: t.arg.string({ description: 'The new password: 10 characters at least.', required: true }),
    },
    resolve: async (_root, args, ctx) => {
      await changePassword(ctx.deps, ctx.actor, args);
      return true;
    },
  }),
}));
