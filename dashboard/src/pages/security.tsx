import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, type CombinedError } from 'urql';
import { errorCode, errorText } from '../errors.js';
import { graphql } from '../graphql.js';
import { faDigits } from '../format.js';
import { useTitle } from '../router.js';
import { appCode, CODE_PATTERN, mustSetUp, TwoFactorState, useReportTwoFactor } from '../two-factor.js';
import { CopyButton, Empty, ErrorNote, Loading, PageTitle, Section } from '../ui/common.js';
import { QrCode } from '../ui/qr.js';

const EnableTotp = graphql(`
  mutation DashboardEnableTotp {
    enableTotp {
      secret
      otpauthUrl
    }
  }
`);

const ConfirmTotp = graphql(`
  mutation DashboardConfirmTotp($code: String!) {
    confirmTotp(code: $code) {
      recoveryCodes
    }
  }
`);

const DisableTotp = graphql(`
  mutation DashboardDisableTotp($code: String!) {
    disableTotp(code: $code) {
      id
      totpEnabled
    }
  }
`);

const RequireTotp = graphql(`
  mutation DashboardRequireTotp($requireTotp: Boolean!) {
    updateMerchant(input: { requireTotp: $requireTotp }) {
      id
      requireTotp
    }
  }
`);

/** A refused code reads as a wrong code; the throttle, a lost connection or a stale state as themselves. */
function codeProblem(error: CombinedError | undefined): string | null {
  if (!error) return null;
  const code = errorCode(error);
  if (error.networkError || code === 'rate_limited' || code === 'invalid_state' || code === 'unavailable') return errorText(error);
  return 'کد درست نیست یا پیش‌تر به کار رفته است؛ کد تازه‌ای را که برنامه همین حالا نشان می‌دهد وارد کنید.';
}

/** The base32 secret in groups of four, as authenticator apps show and ask for it. */
function grouped(secret: string): string {
  return (secret.match(/.{1,4}/g) ?? []).join(' ');
}

/** The app's code (a numeric keypad on phones); `recovery` takes a recovery code too (letters, a dash). */
function CodeField({ id, label, recovery = false }: { id: string; label: string; recovery?: boolean }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name="code" inputMode={recovery ? 'text' : 'numeric'} autoComplete="one-time-code" autoCapitalize="none" spellCheck={false} dir="ltr" required />
    </div>
  );
}

/** Enable (a secret, not yet on), then confirm with the app's first code: the recovery codes come back once. */
function SetUp({ onConfirmed }: { onConfirmed: (codes: string[]) => void }) {
  const [enabled, enable] = useMutation(EnableTotp);
  const [confirmed, confirm] = useMutation(ConfirmTotp);
  const [problem, setProblem] = useState<string | null>(null);
  const pending = enabled.data?.enableTotp;
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const code = appCode(String(new FormData(e.currentTarget).get('code') ?? ''));
    if (!CODE_PATTERN.test(code)) return setProblem('کد برنامه شش رقم است؛ همان شش رقمی را که برنامه نشان می‌دهد وارد کنید.');
    setProblem(null);
    // The answer names no user: every read of the user (this page, the shell's) is read again.
    const result = await confirm({ code }, { additionalTypenames: ['User'] });
    const codes = result.data?.confirmTotp.recoveryCodes;
    if (codes) onConfirmed(codes);
  };
  if (!pending) {
    return (
      <>
        <p>با ورود دومرحله‌ای، هر ورود به داشبورد جز گذرواژه کد شش‌رقمی برنامهٔ رمزساز گوشی شما را هم می‌خواهد؛ گذرواژهٔ لورفته به‌تنهایی راه ورود نیست.</p>
        <p className="buttons">
          <button type="button" disabled={enabled.fetching} onClick={() => void enable({})}>
            راه‌اندازی ورود دومرحله‌ای
          </button>
        </p>
        <ErrorNote error={enabled.error} />
      </>
    );
  }
  return (
    <div id="totp-setup">
      <ol className="steps">
        <li>
          <p>
            برنامهٔ رمزساز (مانند <bdi translate="no">Google Authenticator</bdi>، <bdi translate="no">Microsoft Authenticator</bdi> یا <bdi translate="no">FreeOTP</bdi>) را روی گوشی باز
            کنید و این کد کیوآر را اسکن کنید.
          </p>
          <QrCode value={pending.otpauthUrl} id="totp-qr" alt="کد کیوآر راه‌اندازی ورود دومرحله‌ای؛ آن را با برنامهٔ رمزساز گوشی اسکن کنید" />
        </li>
        <li>
          <p>اگر اسکن نشد، این کلید را در برنامه دستی وارد کنید (نوع «بر پایهٔ زمان»):</p>
          <p className="inline-form">
            <code dir="ltr" translate="no" className="secret" id="totp-secret" data-secret={pending.secret}>
              {grouped(pending.secret)}
            </code>
            <CopyButton text={pending.secret} label="کپی کلید" />
          </p>
        </li>
        <li>
          <form className="code-form" onSubmit={submit} aria-label="تأیید ورود دومرحله‌ای">
            <CodeField id="totp-confirm-code" label="کد شش‌رقمی‌ای که برنامه نشان می‌دهد" />
            <div className="field buttons">
              <button type="submit" disabled={confirmed.fetching}>
                تأیید و روشن کردن
              </button>
            </div>
            <ErrorNote text={problem ?? codeProblem(confirmed.error)} />
          </form>
        </li>
      </ol>
    </div>
  );
}

/** The recovery codes the API shows once: copy or download them before leaving the page. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = codes.join('\n');
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'recovery-codes.txt';
    a.click();
    window.setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <div className="once" role="status" id="recovery-codes-panel">
      <p>
        <strong>ورود دومرحله‌ای روشن شد.</strong> این {faDigits(codes.length)} کد بازیابی فقط همین یک بار نشان داده می‌شوند: آن‌ها را جای امنی بیرون از گوشی نگه
        دارید؛ اگر گوشی در دسترس نبود، هر کد یک بار به جای کد برنامه کار می‌کند.
      </p>
      <ol className="recovery-codes" id="recovery-codes" dir="ltr" translate="no">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <p className="buttons">
        <CopyButton text={text} label="کپی همهٔ کدها" />
        <button type="button" className="secondary small" onClick={download}>
          دریافت فایل کدها
        </button>
        <button type="button" className="small" onClick={onDone}>
          کدها را نگه داشتم
        </button>
      </p>
    </div>
  );
}

/** Off with the app's current code, or a recovery code when the phone is gone (the answer is the user: read again). */
function TurnOff() {
  const [state, disable] = useMutation(DisableTotp);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const code = appCode(String(new FormData(e.currentTarget).get('code') ?? ''));
    if (!code) return setProblem('کد برنامه یا یکی از کدهای بازیابی را وارد کنید.');
    setProblem(null);
    await disable({ code });
  };
  return (
    <form className="code-form" onSubmit={submit} aria-label="خاموش کردن ورود دومرحله‌ای">
      <CodeField id="totp-disable-code" label="برای خاموش کردن: کد برنامه یا یک کد بازیابی" recovery />
      <div className="field buttons">
        <button type="submit" className="danger" disabled={state.fetching}>
          خاموش کردن ورود دومرحله‌ای
        </button>
      </div>
      <ErrorNote text={problem ?? codeProblem(state.error)} />
    </form>
  );
}

/** The owner's switch: two-factor for every user of the merchant. */
function RequireForEveryone({ required, ownOn }: { required: boolean; ownOn: boolean }) {
  const [state, update] = useMutation(RequireTotp);
  // The switch shows the owner's choice at once; the merchant read again confirms it (or an error undoes it).
  const [wanted, setWanted] = useState<boolean | null>(null);
  useEffect(() => {
    if (wanted === required) setWanted(null);
  }, [wanted, required]);
  const change = async (requireTotp: boolean) => {
    setWanted(requireTotp);
    const result = await update({ requireTotp });
    if (result.error) setWanted(null);
  };
  return (
    <>
      <div className="check">
        <input
          id="require-totp"
          name="requireTotp"
          type="checkbox"
          role="switch"
          checked={wanted ?? required}
          // The API turns it on only for an owner who has it on (409 invalid_state otherwise).
          disabled={state.fetching || (!required && !ownOn)}
          aria-describedby="require-totp-help"
          onChange={(e) => void change(e.target.checked)}
        />
        <label htmlFor="require-totp">ورود دومرحله‌ای برای همهٔ کاربران لازم باشد</label>
      </div>
      <p className="muted" id="require-totp-help">
        روشن که باشد، کاربری که ورود دومرحله‌ای را راه نینداخته تنها می‌تواند آن را راه بیندازد و تا آن وقت تصمیم‌هایی که پول جابه‌جا می‌کنند (وصل کردن واریز، تأیید دستی،
        بازپرداخت) از او پذیرفته نمی‌شود.{!required && !ownOn && ' برای روشن کردن آن، نخست ورود دومرحله‌ای خودتان را در بخش بالا راه بیندازید.'}
      </p>
      <ErrorNote error={state.error} />
    </>
  );
}

export function SecurityPage() {
  useTitle('ورود دومرحله‌ای');
  const [result] = useQuery({ query: TwoFactorState });
  // Shown once, right after confirming; kept here so the state read again does not hide them.
  const [codes, setCodes] = useState<string[] | null>(null);
  const data = result.data;
  useReportTwoFactor(data ? mustSetUp(data) : undefined);
  if (!data) return result.error ? <ErrorNote error={result.error} /> : <Loading />;
  const user = data.viewer?.user;
  return (
    <>
      <PageTitle>ورود دومرحله‌ای</PageTitle>
      {mustSetUp(data) && (
        <p className="warn notice" role="status" id="totp-required-note">
          مالک حساب ورود دومرحله‌ای را برای همهٔ کاربران لازم کرده است؛ تا آن را همین‌جا راه نیندازید، بخش‌های دیگر داشبورد برای شما باز نمی‌شود.
        </p>
      )}
      {!user ? (
        <Empty>ورود دومرحله‌ای برای کاربران داشبورد است که با ایمیل و گذرواژه وارد می‌شوند.</Empty>
      ) : (
        <Section title="ورود دومرحله‌ای شما">
          <p id="totp-state" data-totp-enabled={String(user.totpEnabled)}>
            وضعیت:{' '}
            <span className={`status ${user.totpEnabled ? 'status-confirmed' : 'status-pending'}`}>{user.totpEnabled ? 'روشن' : 'خاموش'}</span>
          </p>
          {codes && <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />}
          {user.totpEnabled ? !codes && <TurnOff /> : <SetUp onConfirmed={setCodes} />}
        </Section>
      )}
      {user?.role === 'owner' && data.viewer?.merchant && (
        <Section title="برای همهٔ کاربران">
          <RequireForEveryone required={data.viewer.merchant.requireTotp} ownOn={user.totpEnabled} />
        </Section>
      )}
    </>
  );
}
