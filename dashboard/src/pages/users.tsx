import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql, type ResultOf } from '../graphql.js';
import { faDigits } from '../format.js';
import { ROLE } from '../labels.js';
import { useRole, type Role } from '../role.js';
import { useTitle } from '../router.js';
import { MIN_PASSWORD } from '../session.js';
import { DateTime, ErrorNote, Loading, PageTitle, Section, ShownOnce } from '../ui/common.js';

const Users = graphql(`
  query DashboardUsers {
    users {
      id
      email
      role
      passwordSet
      createdAt
    }
    sessions {
      id
      current
      createdAt
      lastSeenAt
      expiresAt
      userAgent
      ip
    }
    viewer {
      user {
        id
      }
    }
  }
`);

const Invite = graphql(`
  mutation DashboardInviteUser($email: String!, $role: UserRole!) {
    inviteUser(email: $email, role: $role) {
      setPasswordUrl
      user {
        id
        email
        role
      }
    }
  }
`);

const UpdateUser = graphql(`
  mutation DashboardUpdateUser($id: ID!, $role: UserRole!) {
    updateUser(id: $id, input: { role: $role }) {
      id
      role
    }
  }
`);

const RemoveUser = graphql(`
  mutation DashboardRemoveUser($id: ID!) {
    removeUser(id: $id) {
      id
    }
  }
`);

const ResetPassword = graphql(`
  mutation DashboardResetPassword($id: ID!) {
    resetUserPassword(id: $id) {
      setPasswordUrl
      user {
        id
      }
    }
  }
`);

const RevokeSession = graphql(`
  mutation DashboardRevokeSession($id: ID!) {
    revokeSession(id: $id) {
      id
      revokedAt
    }
  }
`);

const ChangePassword = graphql(`
  mutation DashboardChangePassword($currentPassword: String!, $newPassword: String!) {
    changePassword(currentPassword: $currentPassword, newPassword: $newPassword)
  }
`);

const ROLES: [Role, string][] = [
  ['owner', 'مالک: همه‌کاره، با مدیریت کاربران'],
  ['staff', 'کارمند: خواندن و تصمیم دربارهٔ استثناها'],
  ['viewer', 'بیننده: فقط خواندن و خروجی'],
];

type User = ResultOf<typeof Users>['users'][number];

function UserItem({ user, self, manage }: { user: User; self: boolean; manage: boolean }) {
  const [updated, update] = useMutation(UpdateUser);
  const [removed, remove] = useMutation(RemoveUser);
  const [reset, resetPassword] = useMutation(ResetPassword);
  const [sure, setSure] = useState(false);
  const selectId = `role-${user.id}`;
  return (
    <li className="row" data-user-id={user.id} data-role={user.role}>
      <div className="row-main">
        <strong dir="ltr">{user.email}</strong>
        <span className="tag">{ROLE[user.role]}</span>
        {self && <span className="tag">شما</span>}
        {!user.passwordSet && <span className="status status-pending">گذرواژه تعیین نشده</span>}
      </div>
      <p className="muted">
        افزوده شده <DateTime iso={user.createdAt} />
      </p>
      {manage && (
        <div className="inline-form">
          <label htmlFor={selectId}>نقش</label>
          <select id={selectId} value={user.role} disabled={updated.fetching} onChange={(e) => void update({ id: user.id, role: e.target.value as Role })}>
            {ROLES.map(([code]) => (
              <option key={code} value={code}>
                {ROLE[code]}
              </option>
            ))}
          </select>
          <button type="button" className="secondary small" disabled={reset.fetching} onClick={() => void resetPassword({ id: user.id })}>
            پیوند تازهٔ گذرواژه
          </button>
          {!self &&
            (sure ? (
              <>
                <button type="button" className="danger small" disabled={removed.fetching} onClick={() => void remove({ id: user.id })}>
                  بله، حذف شود
                </button>
                <button type="button" className="secondary small" onClick={() => setSure(false)}>
                  انصراف
                </button>
              </>
            ) : (
              <button type="button" className="secondary small" onClick={() => setSure(true)}>
                حذف کاربر
              </button>
            ))}
        </div>
      )}
      {reset.data && <ShownOnce title="پیوند تعیین گذرواژه (۲۴ ساعت، یک‌بار)" value={reset.data.resetUserPassword.setPasswordUrl} />}
      <ErrorNote error={updated.error ?? removed.error ?? reset.error} />
    </li>
  );
}

function InviteForm() {
  const [state, invite] = useMutation(Invite);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    void invite({ email: String(form.get('email') ?? '').trim(), role: String(form.get('role')) as Role });
  };
  return (
    <form className="grid-form" onSubmit={submit} aria-label="دعوت کاربر">
      <div className="field">
        <label htmlFor="invite-email">ایمیل</label>
        <input id="invite-email" name="email" type="email" dir="ltr" required />
      </div>
      <div className="field">
        <label htmlFor="invite-role">نقش</label>
        <select id="invite-role" name="role" defaultValue="staff">
          {ROLES.map(([code, text]) => (
            <option key={code} value={code}>
              {text}
            </option>
          ))}
        </select>
      </div>
      <div className="field buttons">
        <button type="submit" disabled={state.fetching}>
          دعوت
        </button>
      </div>
      {state.data && <ShownOnce title={`پیوند دعوت ${state.data.inviteUser.user.email}`} value={state.data.inviteUser.setPasswordUrl} />}
      <ErrorNote error={state.error} />
    </form>
  );
}

function ChangePasswordForm() {
  const [state, change] = useMutation(ChangePassword);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const newPassword = String(form.get('new') ?? '');
    if (newPassword.length < MIN_PASSWORD) return setProblem(`گذرواژه دست‌کم ${faDigits(MIN_PASSWORD)} نویسه باشد.`);
    setProblem(null);
    void change({ currentPassword: String(form.get('current') ?? ''), newPassword });
  };
  return (
    <form className="grid-form" onSubmit={submit} aria-label="تغییر گذرواژه">
      <div className="field">
        <label htmlFor="pw-current">گذرواژهٔ فعلی</label>
        <input id="pw-current" name="current" type="password" autoComplete="current-password" dir="ltr" required />
      </div>
      <div className="field">
        <label htmlFor="pw-new">گذرواژهٔ تازه</label>
        <input id="pw-new" name="new" type="password" autoComplete="new-password" dir="ltr" minLength={MIN_PASSWORD} required />
      </div>
      <div className="field buttons">
        <button type="submit" className="secondary" disabled={state.fetching}>
          تغییر گذرواژه
        </button>
      </div>
      <ErrorNote text={problem} />
      {!problem && <ErrorNote error={state.error} />}
      {state.data?.changePassword && (
        <p className="ok" role="status">
          گذرواژه تغییر کرد؛ نشست‌های دیگر شما بسته شد.
        </p>
      )}
    </form>
  );
}

function Sessions({ sessions }: { sessions: ResultOf<typeof Users>['sessions'] }) {
  const [state, revoke] = useMutation(RevokeSession);
  return (
    <>
    <ul className="rows">
      {sessions.map((s) => (
        <li key={s.id} className="row" data-session-id={s.id}>
          <div className="row-main">
            <span dir="ltr">{s.userAgent ?? '—'}</span>
            {s.current && <span className="tag">همین مرورگر</span>}
          </div>
          <div className="row-meta">
            <span>
              ورود <DateTime iso={s.createdAt} />
            </span>
            <span>
              آخرین کار <DateTime iso={s.lastSeenAt} />
            </span>
            {s.ip && <span dir="ltr">{s.ip}</span>}
          </div>
          {!s.current && (
            <button type="button" className="secondary small" disabled={state.fetching} onClick={() => void revoke({ id: s.id })}>
              بستن این نشست
            </button>
          )}
        </li>
      ))}
    </ul>
    <ErrorNote error={state.error} />
    </>
  );
}

export function UsersPage() {
  useTitle('کاربران');
  const { isOwner } = useRole();
  const [result] = useQuery({ query: Users });
  const data = result.data;
  if (!data) return result.error ? <ErrorNote error={result.error} /> : <Loading />;
  const me = data.viewer?.user?.id;
  return (
    <>
      <PageTitle>کاربران</PageTitle>
      <Section title="کاربران داشبورد">
        <ul className="rows">
          {data.users.map((u) => (
            <UserItem key={u.id} user={u} self={u.id === me} manage={isOwner} />
          ))}
        </ul>
      </Section>
      {isOwner ? (
        <Section title="دعوت کاربر تازه">
          <InviteForm />
        </Section>
      ) : (
        <p className="muted" id="owner-only-note">
          دعوت، تغییر نقش و حذف کاربران فقط با نقش «مالک» است.
        </p>
      )}
      <Section title="نشست‌های شما">
        <Sessions sessions={data.sessions} />
      </Section>
      <Section title="گذرواژهٔ شما">
        <ChangePasswordForm />
      </Section>
    </>
  );
}
