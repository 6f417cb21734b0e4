import { useId, useState, type ReactNode } from 'react';
import type { CombinedError } from '@urql/core';
import { errorCode, errorText, fieldErrors } from '../errors.js';
import { formatDateTime } from '../format.js';
import { PAYMENT_STATUS, MESSAGE_STATUS, label } from '../labels.js';
import { BASE, Link } from '../router.js';
import { SECURITY_PATH } from '../two-factor.js';

export function Loading() {
  return (
    <p className="muted" role="status">
      در حال بارگذاری…
    </p>
  );
}

export function ErrorNote({ error, text }: { error?: CombinedError | undefined; text?: string | null }) {
  const message = text ?? errorText(error);
  if (!message) return null;
  // A decision or a setting refused for want of two-factor: the way to set it up sits in the message.
  const setUp = text == null && errorCode(error) === 'totp_required';
  return (
    <p className="error" role="alert" data-error-code={setUp ? 'totp_required' : undefined}>
      {message}
      {setUp && (
        <>
          {' '}
          <Link to={`${BASE}${SECURITY_PATH}`}>راه‌اندازی ورود دومرحله‌ای</Link>
        </>
      )}
    </p>
  );
}

export function DateTime({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span>—</span>;
  return <time dateTime={iso}>{formatDateTime(iso)}</time>;
}

export function PaymentStatusBadge({ status }: { status: string }) {
  return <span className={`status status-${status}`}>{label(PAYMENT_STATUS, status)}</span>;
}

export function MessageStatusBadge({ status }: { status: string }) {
  return <span className={`status status-msg-${status}`}>{label(MESSAGE_STATUS, status)}</span>;
}

export function Section({ title, children, actions }: { title: ReactNode; children: ReactNode; actions?: ReactNode }) {
  const id = useId();
  return (
    <section className="panel" aria-labelledby={id}>
      <div className="panel-head">
        <h2 id={id}>{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

export function PageTitle({ children }: { children: ReactNode }) {
  return <h1 className="page-title">{children}</h1>;
}

/** A definition list of label → value pairs. */
export function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="facts">
      {items.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function CopyButton({ text, label: name = 'کپی' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setDone(true);
      window.setTimeout(() => setDone(false), 2000);
    } catch {
      setDone(false);
    }
  };
  return (
    <button type="button" className="secondary small" onClick={copy}>
      {done ? 'کپی شد' : name}
    </button>
  );
}

/** A secret the API shows once: a key, a hook URL, a signing secret. */
export function ShownOnce({ title, value }: { title: string; value: string }) {
  return (
    <div className="once" role="status">
      <p>
        <strong>{title}</strong> — فقط همین یک بار نشان داده می‌شود؛ آن را جای امنی نگه دارید.
      </p>
      <code dir="ltr" className="secret">
        {value}
      </code>
      <CopyButton text={value} />
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="muted empty">{children}</p>;
}

/** The API's refusal of one input (its `details.fields`), in Persian, under that input. */
export function FieldProblem({ error, name, id }: { error?: CombinedError | undefined; name: string; id?: string }) {
  const text = fieldErrors(error)[name];
  return text ? (
    <p className="field-error" id={id} role="alert" data-field-error={name}>
      {text}
    </p>
  ) : null;
}

/**
 * The second look before money moves (attach, confirm by hand, refund, a balance gap's decision): the amount and the order
 * once more, then "yes" runs the decision, "cancel" goes back to the form.
 */
export function AskOnce({ question, yes, busy, onYes, onNo }: { question: ReactNode; yes: string; busy: boolean; onYes: () => void; onNo: () => void }) {
  return (
    <div className="confirm" role="alertdialog" aria-label="تأیید دوباره" data-confirm-step="">
      <p>{question}</p>
      <div className="buttons">
        <button type="button" disabled={busy} onClick={onYes} data-confirm-yes="">
          {yes}
        </button>
        <button type="button" className="secondary" onClick={onNo}>
          انصراف
        </button>
      </div>
    </div>
  );
}
