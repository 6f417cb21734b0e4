import { describe, expect, it } from 'vitest';
import { requireActor, type Actor, type UserActor } from '../../src/domain/auth/actor.js';
import { roleAllows, USER_ROLES } from '../../src/domain/auth/roles.js';
import { callerScope, requireDecider } from '../../src/domain/auth/scope.js';
import { isAppError } from '../../src/errors.js';

// The role rule without a database: one table of powers, applied by requireActor (management),
// requireDecider (exception decisions) and callerScope (reads).

const user = (role: UserActor['role']): UserActor => ({ kind: 'user', userId: 'u', merchantId: 'm', role, sessionId: 's', mustSetUpTotp: false });
const merchantKey: Actor = { kind: 'merchant', merchantId: 'm', keyId: 'k' };
const projectKey: Actor = { kind: 'project', projectId: 'p', merchantId: 'm', sandbox: true, keyId: 'k' };

function codeOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (err) {
    return isAppError(err) ? err.code : 'thrown';
  }
}

describe('the powers of each role', () => {
  it('gives owners everything, staff decisions, viewers nothing beyond reading', () => {
    expect(USER_ROLES.map((r) => [r, roleAllows(r, 'manage'), roleAllows(r, 'decide'), roleAllows(r, 'users')])).toEqual([
      ['owner', true, true, true],
      ['staff', false, true, false],
      ['viewer', false, false, false],
    ]);
  });
});

describe('requireActor', () => {
  it('takes an owner where the merchant key is named, and refuses other roles with 403 forbidden', () => {
    expect(codeOf(() => requireActor(user('owner'), 'merchant'))).toBeNull();
    expect(codeOf(() => requireActor(user('staff'), 'merchant'))).toBe('forbidden');
    expect(codeOf(() => requireActor(user('viewer'), 'merchant'))).toBe('forbidden');
    expect(codeOf(() => requireActor(merchantKey, 'merchant'))).toBeNull();
  });

  it('takes every role where users or the public are named, and keeps a wrong kind of credential at 401', () => {
    for (const role of USER_ROLES) {
      expect(codeOf(() => requireActor(user(role), 'merchant', 'user'))).toBeNull();
      expect(codeOf(() => requireActor(user(role), 'public', 'merchant'))).toBeNull();
      expect(codeOf(() => requireActor(user(role), 'project'))).toBe('unauthorized');
      expect(codeOf(() => requireActor(user(role), 'operator'))).toBe('unauthorized');
    }
    expect(codeOf(() => requireActor(projectKey, 'merchant'))).toBe('unauthorized');
    expect(codeOf(() => requireActor(merchantKey, 'user'))).toBe('unauthorized');
  });
});

describe('callerScope and requireDecider', () => {
  it('scopes every role to its merchant, and lets owners and staff decide but not viewers', () => {
    for (const role of USER_ROLES) expect(callerScope(user(role), null)).toEqual({ merchantId: 'm', projectId: null, none: false });
    expect(codeOf(() => requireDecider(user('owner')))).toBeNull();
    expect(codeOf(() => requireDecider(user('staff')))).toBeNull();
    expect(codeOf(() => requireDecider(user('viewer')))).toBe('forbidden');
    expect(codeOf(() => requireDecider(merchantKey))).toBeNull();
    expect(codeOf(() => requireDecider(projectKey))).toBeNull();
  });
});

describe('the two-factor rule (a merchant requiring it, a user without it)', () => {
  const unready = (role: UserActor['role']): UserActor => ({ ...user(role), mustSetUpTotp: true });

  it('refuses every power with 403 totp_required once the role allows it, and keeps reading and the role refusals as they were', () => {
    expect(codeOf(() => requireDecider(unready('owner')))).toBe('totp_required');
    expect(codeOf(() => requireDecider(unready('staff')))).toBe('totp_required');
    expect(codeOf(() => requireDecider(unready('viewer')))).toBe('forbidden');
    expect(codeOf(() => requireActor(unready('owner'), 'merchant'))).toBe('totp_required');
    expect(codeOf(() => requireActor(unready('staff'), 'merchant'))).toBe('forbidden');
    for (const role of USER_ROLES) {
      expect(codeOf(() => requireActor(unready(role), 'merchant', 'user'))).toBeNull();
      expect(callerScope(unready(role), null)).toEqual({ merchantId: 'm', projectId: null, none: false });
    }
  });
});
