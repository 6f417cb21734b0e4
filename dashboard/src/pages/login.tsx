import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ErrorNote } from '../ui/common.js';
import { safeNext, useLocation, useTitle } from '../router.js';
import { login, requestReset, type SessionResult } from '../session.js';
import { appCode, CODE_PATTERN } from '../two-factor.js';

type Credentials = { email: string; password: string };

/** A refusal the two steps share: the throttle and a dropped connection read the same in both. */
function commonProblem(result: Exclude<SessionResult, { ok: true }>): string | null {
  if (result.status === 429) return 'تلاش‌های ناموفق زیاد بود؛ چند دقیقه بعد دوباره تلاش کنید.';
  if (result.status === 0) return result.message;
  return null;
}

export function LoginPage() {
  const { query } = useLocation();
  // Set once the password was right and the API asked for the second factor (401 totp_required).
  const [second, setSecond] = useState<Credentials | null>(null);
  useTitle(second ? 'ورود دومرحله‌ای' : 'ورود');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A full load: every query starts again with the new session.
  const enter = () => window.location.assign(safeNext(query.get('next')));

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const credentials = { email: String(form.get('email') ?? '').trim(), password: String(form.get('password') ?? '') };
    setBusy(true);
    setError(null);
    const result = await login(credentials.email, credentials.password);
    setBusy(false);
    if (result.ok) return enter();
    if (result.code === 'totp_required') return setSecond(credentials);
    setError(commonProblem(result) ?? 'ایمیل یا گذرواژه درست نیست.');
  };

  if (second) return <CodeStep credentials={second} onSignedIn={enter} onBack={() => setSecond(null)} />;
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
      <ForgotPassword />
    </main>
  );
}

/**
 * A forgotten password: when the service sends mail (GET /v1/session/reset says `byEmail`), a link
 * is mailed (POST /v1/session/reset answers the same whatever the email); without mail, the shop's
 * owner makes a new link on the users page.
 */
function ForgotPassword() {
  const [open, setOpen] = useState(false);
  const [byEmail, setByEmail] = useState<boolean | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!open || byEmail !== null) return;
    fetch('/v1/session/reset', { credentials: 'same-origin' })
      .then((res) => (res.ok ? (res.json() as Promise<{ byEmail?: boolean }>) : { byEmail: false }))
      .then((answer) => setByEmail(answer.byEmail === true))
      .catch(() => setByEmail(false));
  }, [open, byEmail]);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const email = String(new FormData(e.currentTarget).get('email') ?? '').trim();
    setBusy(true);
    const result = await requestReset(email);
    setBusy(false);
    if (result.ok) setSent(true);
    else setProblem(commonProblem(result) ?? 'درخواست پذیرفته نشد؛ ایمیل را درست بنویسید.');
  };
  if (!open) {
    return (
      <p className="auth-more">
        <button type="button" className="secondary" onClick={() => setOpen(true)} id="forgot-password">
          گذرواژه را فراموش کرده‌ام
        </button>
      </p>
    );
  }
  return (
    <section className="panel auth-form" aria-labelledby="forgot-title" id="password-reset">
      <h2 id="forgot-title">بازیابی گذرواژه</h2>
      {byEmail === null ? (
        <p className="muted" role="status">
          در حال بارگذاری…
        </p>
      ) : !byEmail ? (
        <p id="reset-ask-owner" data-reset="ask-owner">
          از مالک حساب فروشگاه بخواهید در صفحهٔ «کاربران» برای شما «پیوند تازهٔ گذرواژه» بسازد؛ با آن پیوند گذرواژهٔ تازه می‌گذارید.
        </p>
      ) : sent ? (
        <p className="ok" role="status" id="reset-sent">
          اگر این ایمیل در داشبورد ثبت شده باشد، پیوند تعیین گذرواژه (یک ساعت معتبر) به آن فرستاده شد. صندوق نامه‌ها و پوشهٔ هرزنامه را ببینید.
        </p>
      ) : (
        <form onSubmit={submit} className="auth-form" data-reset="email">
          <label htmlFor="reset-email">ایمیل</label>
          <input id="reset-email" name="email" type="email" autoComplete="username" dir="ltr" required />
          <ErrorNote text={problem} />
          <button type="submit" disabled={busy}>
            فرستادن پیوند تعیین گذرواژه
          </button>
        </form>
      )}
    </section>
  );
}

/**
 * The second step: the code the user's authenticator app shows now, or one of the recovery codes
 * they kept when they set it up (each works once). The password is sent again with it: the API
 * holds no half-signed-in state between the steps.
 */
function CodeStep({ credentials, onSignedIn, onBack }: { credentials: Credentials; onSignedIn: () => void; onBack: () => void }) {
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), [recovery]);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const totp = recovery ? code.trim() : appCode(code);
    if (!recovery && !CODE_PATTERN.test(totp)) return setError('کد برنامه شش رقم است؛ همان شش رقمی را که برنامه نشان می‌دهد وارد کنید.');
    if (recovery && totp === '') return setError('یکی از کدهای بازیابی را وارد کنید.');
    setBusy(true);
    setError(null);
    const result = await login(credentials.email, credentials.password, totp);
    setBusy(false);
    if (result.ok) return onSignedIn();
    setCode('');
    input.current?.focus();
    setError(
      commonProblem(result) ??
        (recovery ? 'این کد بازیابی درست نیست یا پیش‌تر به کار رفته است.' : 'کد درست نیست؛ کد تازه‌ای را که برنامه همین حالا نشان می‌دهد وارد کنید.'),
    );
  };
  const toggle = () => {
    setRecovery(!recovery);
    setCode('');
    setError(null);
  };
  return (
    <main id="main" className="auth">
      <form className="panel auth-form" onSubmit={submit} aria-labelledby="totp-step-title" id="totp-step">
        <h1 id="totp-step-title">ورود دومرحله‌ای</h1>
        <p className="muted" dir="ltr" translate="no">
          {credentials.email}
        </p>
        <p className="muted">
          گذرواژه درست بود.{' '}
          {recovery
            ? 'یکی از کدهای بازیابی‌ای را که هنگام راه‌اندازی نگه داشتید وارد کنید؛ هر کد فقط یک بار کار می‌کند.'
            : 'کد شش‌رقمی‌ای را که برنامهٔ رمزساز گوشی شما (مانند Google Authenticator) برای این حساب نشان می‌دهد وارد کنید.'}
        </p>
        <label htmlFor="login-totp">{recovery ? 'کد بازیابی' : 'کد شش‌رقمی'}</label>
        {recovery ? (
          <input
            ref={input}
            id="login-totp"
            name="totp"
            data-kind="recovery"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            dir="ltr"
            required
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        ) : (
          <input
            ref={input}
            id="login-totp"
            name="totp"
            data-kind="app"
            inputMode="numeric"
            autoComplete="one-time-code"
            dir="ltr"
            required
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        )}
        <ErrorNote text={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'در حال ورود…' : 'ورود'}
        </button>
        <button type="button" className="secondary" onClick={toggle}>
          {recovery ? 'استفاده از کد برنامه' : 'گوشی در دسترس نیست؟ استفاده از کد بازیابی'}
        </button>
        <button type="button" className="secondary" onClick={onBack}>
          بازگشت و ایمیل دیگر
        </button>
      </form>
    </main>
  );
}
