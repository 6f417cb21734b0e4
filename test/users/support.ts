import { randomBytes, scryptSync } from 'node:crypto';
import { expect } from 'vitest';
import { operatorActor } from '../../src/domain/auth/actor.js';
import { addUser } from '../../src/domain/users/users.js';
import { request, type GqlResult, type HttpResult, type TestApp } from '../support/harness.js';

/** The services of these tests trust X-Forwarded-For from loopback, so each test can be its own client address. */
export const USERS_ENV = { TRUST_PROXY: 'loopback' };

export const CSRF = { 'x-graphql-yoga-csrf': '1' };

let clients = 0;
/** A client address nobody else in the file uses (the sign-in throttle counts per address). */
export function newClientIp(): string {
  clients++;
  return `10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`;
}

/** `device` is the device cookie (`name=value`) of the browser that signed in. */
export type SignedIn = { userId: string; email: string; password: string; cookie: string; ip: string; device: string };

/** The `name=value` of the session cookie a response sets (what a browser would send back). */
export function cookieOf(res: HttpResult): string {
  const set = res.headers.getSetCookie().find((c) => /^(__Host-)?gw_session=/.test(c));
  expect(set, 'a session cookie is set').toBeDefined();
  return set!.split(';')[0]!;
}

/** The `name=value` of the device cookie a sign-in sets (docs/security.md "Signing in"). */
export function deviceCookieOf(res: HttpResult): string {
  const set = res.headers.getSetCookie().find((c) => /^(__Host-)?gw_device=/.test(c));
  expect(set, 'a device cookie is set').toBeDefined();
  return set!.split(';')[0]!;
}

export function tokenOfUrl(url: string): string {
  return new URL(url).searchParams.get('token')!;
}

export function signIn(app: TestApp, email: string, password: string, ip = newClientIp(), headers: Record<string, string> = {}) {
  return request(app.baseUrl, 'POST', '/v1/session', { body: { email, password }, headers: { 'x-forwarded-for': ip, ...headers } });
}

/** A sign-in with a two-factor code (or a recovery code) beside the password. */
export function signInWithTotp(app: TestApp, email: string, password: string, totp: string, ip = newClientIp(), headers: Record<string, string> = {}) {
  return request(app.baseUrl, 'POST', '/v1/session', { body: { email, password, totp }, headers: { 'x-forwarded-for': ip, ...headers } });
}

export function setPassword(app: TestApp, token: string, password: string, headers: Record<string, string> = {}) {
  return request(app.baseUrl, 'POST', '/v1/session/password', { body: { token, password }, headers: { 'x-forwarded-for': newClientIp(), ...headers } });
}

/**
 * `password` hashed as the service stores it (src/domain/users/password.ts) but at scrypt's
 * N = 2^10, not 2^15: a stored hash names its own cost, so the service checks it like any other, in
 * about 1/32 of the time. Under a loaded CI runner one check at 2^15 takes seconds, and the
 * throttle and two-factor tests check wrong passwords by the dozen.
 */
export function quickPasswordHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFC'), salt, 32, { N: 2 ** 10, r: 8, p: 1 });
  return ['scrypt', 10, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}

let users = 0;
/**
 * A user of the merchant, added by the operator, with a password set through its link, and signed
 * in. The stored hash is then swapped for a `quickPasswordHash` of the same password, so every
 * later check of it is quick (the tests of how a password is set and stored use the link alone).
 */
export async function addSignedInUser(app: TestApp, merchantId: string, role: 'owner' | 'staff' | 'viewer', email?: string): Promise<SignedIn> {
  users++;
  const address = email ?? `${role}-${users}-${Date.now()}@shop.example.com`;
  const created = await addUser(app.deps, operatorActor, { merchantId, email: address, role });
  const password = `pass-${role}-${users}-long-enough`;
  expect((await setPassword(app, tokenOfUrl(created.setPasswordUrl), password)).status).toBe(204);
  await app.deps.prisma.user.update({ where: { id: created.user.id }, data: { passwordHash: quickPasswordHash(password) } });
  const ip = newClientIp();
  const res = await signIn(app, address, password, ip);
  expect(res.status).toBe(204);
  return { userId: created.user.id, email: address, password, cookie: cookieOf(res), ip, device: deviceCookieOf(res) };
}

/** GraphQL over HTTP with a session cookie (and, unless told otherwise, the CSRF header). */
export async function gqlAs<T = any>(app: TestApp, cookie: string, query: string, variables: Record<string, unknown> = {}, opts: { csrf?: boolean } = {}): Promise<GqlResult<T>> {
  const headers: Record<string, string> = { cookie, ...(opts.csrf === false ? {} : CSRF) };
  const res = await request(app.baseUrl, 'POST', '/graphql', { body: { query, variables }, headers });
  return { status: res.status, data: res.body?.data, errors: res.body?.errors };
}

export async function gqlOkAs<T = any>(app: TestApp, cookie: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await gqlAs<T>(app, cookie, query, variables);
  if (res.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(res.errors)}`);
  return res.data;
}

/** REST with a session cookie; the CSRF header only when asked. */
export function restAs(app: TestApp, cookie: string, method: string, path: string, opts: { body?: unknown; csrf?: boolean } = {}) {
  return request(app.baseUrl, method, path, { body: opts.body, headers: { cookie, ...(opts.csrf ? CSRF : {}) } });
}

export const errorCode = (res: GqlResult) => res.errors?.[0]?.extensions.code;
