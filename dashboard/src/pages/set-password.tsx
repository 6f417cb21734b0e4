import { useState, type FormEvent } from 'react';
import { ErrorNote } from '../ui/common.js';
import { faDigits } from '../format.js';
import { BASE, Link, useLocation, useTitle } from '../router.js';
import { MIN_PASSWORD, setPassword } from '../session.js';

/** The one-time link of an invitation (or `merchant user add`): `?token=…`. */
export function SetPasswordPage() {
  useTitle('تعیین گذرواژه');
  const { query } = useLocation();
  const token = query.get('token') ?? '';
  const [error, setError] = useState<string | null>(token ? null : 'این پیوند کامل نیست؛ پیوند دعوت را دوباره باز کنید.');
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const password = String(form.get('password') ?? '');
    if (password.length < MIN_PASSWORD) return setError(`گذرواژه دست‌کم ${faDigits(MIN_PASSWORD)} نویسه باشد.`);
    if (password !== String(form.get('confirm') ?? '')) return setError('دو گذرواژه یکی نیستند.');
    setBusy(true);
    setError(null);
    const result = await setPassword(token, password);
    setBusy(false);
    if (result.ok) setDone(true);
    else if (result.status === 400) setError('این پیوند دیگر معتبر نیست (به کار رفته یا منقضی شده). از مدیر حساب پیوند تازه بخواهید.');
    else setError(result.message);
  };
  return (
    <main id="main" className="auth">
      {done ? (
        <section className="panel auth-form" role="status">
          <h1>گذرواژه ثبت شد</h1>
          <p>اکنون با ایمیل و گذرواژهٔ تازه وارد شوید.</p>
          <Link className="button" to={`${BASE}/login`}>
            ورود
          </Link>
        </section>
      ) : (
        <form className="panel auth-form" onSubmit={submit}>
          <h1>تعیین گذرواژه</h1>
          <label htmlFor="new-password">گذرواژهٔ تازه (دست‌کم {faDigits(MIN_PASSWORD)} نویسه)</label>
          <input id="new-password" name="password" type="password" autoComplete="new-password" dir="ltr" minLength={MIN_PASSWORD} required />
          <label htmlFor="confirm-password">تکرار گذرواژه</label>
          <input id="confirm-password" name="confirm" type="password" autoComplete="new-password" dir="ltr" minLength={MIN_PASSWORD} required />
          <ErrorNote text={error} />
          <button type="submit" disabled={busy || !token}>
            ثبت گذرواژه
          </button>
        </form>
      )}
    </main>
  );
}
