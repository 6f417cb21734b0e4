import { useState, type FormEvent } from 'react';
import { ErrorNote } from '../ui/common.js';
import { safeNext, useLocation, useTitle } from '../router.js';
import { login } from '../session.js';

export function LoginPage() {
  useTitle('ورود');
  const { query } = useLocation();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    const result = await login(String(form.get('email') ?? '').trim(), String(form.get('password') ?? ''));
    setBusy(false);
    if (result.ok) {
      // A full load: every query starts again with the new session.
      window.location.assign(safeNext(query.get('next')));
      return;
    }
    if (result.status === 429) setError('تلاش‌های ناموفق زیاد بود؛ چند دقیقه بعد دوباره تلاش کنید.');
    else if (result.status === 0) setError(result.message);
    else setError('ایمیل یا گذرواژه درست نیست.');
  };
  return (
    <main id="main" className="auth">
      <form className="panel auth-form" onSubmit={submit} noValidate={false}>
        <h1>ورود به داشبورد پذیرنده</h1>
        <label htmlFor="login-email">ایمیل</label>
        <input id="login-email" name="email" type="email" autoComplete="username" dir="ltr" required />
        <label htmlFor="login-password">گذرواژه</label>
        <input id="login-password" name="password" type="password" autoComplete="current-password" dir="ltr" required />
        <ErrorNote text={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'در حال ورود…' : 'ورود'}
        </button>
      </form>
    </main>
  );
}
