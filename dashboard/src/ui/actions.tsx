import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation } from 'urql';
import { errorCode, errorDetails } from '../errors.js';
import { parseAmount, latinDigits } from '../format.js';
import { graphql } from '../graphql.js';
import { useUnit, Amount } from '../unit.js';
import { useRole } from '../role.js';
import { AskOnce, ErrorNote } from './common.js';
import { OrderTitle } from './data.js';

/** The merchant's decisions on a payment or a deposit: each one a mutation, each in the audit log. */

const ConfirmManually = graphql(`
  mutation DashboardConfirmManually($id: ID!, $note: String, $late: Boolean) {
    confirmPaymentManually(id: $id, note: $note, late: $late) {
      id
      status
      confirmedLate
      manualNote
      reviewRequired
    }
  }
`);

const Reject = graphql(`
  mutation DashboardReject($id: ID!, $reason: String!) {
    rejectPayment(id: $id, reason: $reason) {
      id
      status
      reviewRequired
    }
  }
`);

const Attach = graphql(`
  mutation DashboardAttach($messageId: ID!, $paymentId: ID!, $note: String, $acceptAmount: Boolean) {
    attachBankMessage(messageId: $messageId, paymentId: $paymentId, note: $note, acceptAmount: $acceptAmount) {
      id
      status
      bankMessageId
      amountReceived
      confirmedLate
      reviewRequired
    }
  }
`);

const Dismiss = graphql(`
  mutation DashboardDismiss($id: ID!, $note: String) {
    dismissBankMessage(id: $id, note: $note) {
      id
      status
      decisionNote
    }
  }
`);

const RecordRefund = graphql(`
  mutation DashboardRecordRefund($paymentId: ID!, $input: RefundInput!) {
    recordRefund(paymentId: $paymentId, input: $input) {
      id
      amount
      paymentId
    }
  }
`);

const RefundMessage = graphql(`
  mutation DashboardRefundMessage($messageId: ID!, $input: MessageRefundInput!) {
    refundBankMessage(messageId: $messageId, input: $input) {
      id
      amount
      bankMessageId
    }
  }
`);

/** What a decision that moves money is about: the amount and the order, shown before it runs. */
export type MoneyContext = { amount?: string | null; order?: { id: string; orderId?: string | null } | null };

function Order({ order }: { order: MoneyContext['order'] }) {
  return order ? <OrderTitle payment={order} /> : <>این پرداخت</>;
}

function Done({ text }: { text: string | null }) {
  return text ? (
    <p className="ok" role="status">
      {text}
    </p>
  ) : null;
}

function ConfirmFormInner({ paymentId, expired, amount, order }: { paymentId: string; expired: boolean } & MoneyContext) {
  const id = useId();
  const [state, confirm] = useMutation(ConfirmManually);
  const [late, setLate] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [asking, setAsking] = useState<{ note: string } | null>(null);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const note = String(new FormData(e.currentTarget).get('note') ?? '').trim();
    if (late && !note) return setProblem('برای تأیید پس از مهلت دیرکرد، یادداشت لازم است.');
    setProblem(null);
    setAsking({ note });
  };
  const run = async () => {
    const note = asking?.note ?? '';
    setAsking(null);
    const result = await confirm({ id: paymentId, note: note || null, late: late || null });
    if (errorCode(result.error) === 'invalid_state' && expired && !late) {
      setProblem('مهلت دیرکرد این پرداخت گذشته است؛ اگر پول را در حساب دیده‌اید «تأیید پس از مهلت» را بزنید و یادداشت بنویسید.');
    }
  };
  return (
    <form className="action" onSubmit={submit}>
      <label htmlFor={`${id}-note`}>یادداشت تأیید {late ? '(لازم)' : '(اختیاری)'}</label>
      <textarea id={`${id}-note`} name="note" rows={2} maxLength={500} required={late} />
      {expired && (
        <div className="check">
          <input id={`${id}-late`} type="checkbox" checked={late} onChange={(e) => setLate(e.target.checked)} />
          <label htmlFor={`${id}-late`}>تأیید پس از مهلت دیرکرد (پول را در حساب دیده‌ام، پیامکی نیامده)</label>
        </div>
      )}
      <ErrorNote text={problem} />
      {!problem && <ErrorNote error={state.error} />}
      <Done text={state.data ? 'پرداخت تأیید شد.' : null} />
      {asking ? (
        <AskOnce
          question={
            <>
              <Order order={order} /> {amount ? <>به مبلغ <Amount rials={amount} /></> : null} بدون پیامک بانک تأیید شود؟ فروشگاه آن را پرداخت‌شده می‌بیند.
            </>
          }
          yes="بله، تأیید شود"
          busy={state.fetching}
          onYes={() => void run()}
          onNo={() => setAsking(null)}
        />
      ) : (
        <button type="submit" disabled={state.fetching}>
          تأیید دستی پرداخت
        </button>
      )}
    </form>
  );
}

function RejectFormInner({ paymentId }: { paymentId: string }) {
  const id = useId();
  const [state, reject] = useMutation(Reject);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const reason = String(new FormData(e.currentTarget).get('reason') ?? '').trim();
    if (reason) void reject({ id: paymentId, reason });
  };
  return (
    <form className="action" onSubmit={submit}>
      <label htmlFor={`${id}-reason`}>دلیل رد (برای فروشگاه در وب‌هوک فرستاده می‌شود)</label>
      <input id={`${id}-reason`} name="reason" maxLength={300} required />
      <ErrorNote error={state.error} />
      <Done text={state.data ? 'پرداخت رد شد.' : null} />
      <button type="submit" className="danger" disabled={state.fetching}>
        رد پرداخت
      </button>
    </form>
  );
}

/**
 * "This deposit is this payment's money", in one step. A deposit of another amount is refused
 * first (amount_mismatch); the user then confirms taking it as it is.
 */
function AttachFormInner({ messageId, paymentId, label, amount, order }: { messageId: string; paymentId: string; label: string } & MoneyContext) {
  const id = useId();
  const [state, attach] = useMutation(Attach);
  const [mismatch, setMismatch] = useState<string | null>(null);
  const [asking, setAsking] = useState<{ note: string | null } | null>(null);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setAsking({ note: String(new FormData(e.currentTarget).get('note') ?? '').trim() || null });
  };
  const run = async () => {
    const note = asking?.note ?? null;
    setAsking(null);
    const result = await attach({ messageId, paymentId, note, acceptAmount: mismatch !== null ? true : null });
    if (errorCode(result.error) === 'amount_mismatch') {
      const amount = errorDetails(result.error).amount;
      setMismatch(typeof amount === 'string' || typeof amount === 'number' ? String(amount) : '');
    }
  };
  return (
    <form className="action attach" onSubmit={submit}>
      <label htmlFor={`${id}-note`}>یادداشت (اختیاری)</label>
      <input id={`${id}-note`} name="note" maxLength={500} />
      {mismatch !== null && (
        <p className="warn" role="alert">
          مبلغ این واریز {mismatch ? <Amount rials={mismatch} /> : ''} با مبلغ پرداخت یکی نیست. اگر همین مبلغ را می‌پذیرید، دوباره بزنید.
        </p>
      )}
      {mismatch === null && <ErrorNote error={state.error} />}
      <Done text={state.data ? 'واریز به پرداخت وصل شد و پرداخت تأیید شد.' : null} />
      {asking ? (
        <AskOnce
          question={
            <>
              واریز {amount ? <Amount rials={amount} /> : null} به <Order order={order} /> وصل شود؟ پرداخت تأیید می‌شود و فروشگاه آن را پرداخت‌شده می‌بیند.
            </>
          }
          yes="بله، وصل شود"
          busy={state.fetching}
          onYes={() => void run()}
          onNo={() => setAsking(null)}
        />
      ) : (
        <button type="submit" disabled={state.fetching || Boolean(state.data)}>
          {mismatch !== null ? 'پذیرفتن مبلغ و وصل کردن' : label}
        </button>
      )}
    </form>
  );
}

function DismissFormInner({ messageId }: { messageId: string }) {
  const id = useId();
  const [state, dismiss] = useMutation(Dismiss);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const note = String(new FormData(e.currentTarget).get('note') ?? '').trim();
    void dismiss({ id: messageId, note: note || null });
  };
  return (
    <form className="action" onSubmit={submit}>
      <label htmlFor={`${id}-note`}>چرا کنار گذاشته می‌شود؟</label>
      <input id={`${id}-note`} name="note" maxLength={500} required />
      <ErrorNote error={state.error} />
      <Done text={state.data ? 'کنار گذاشته شد.' : null} />
      <button type="submit" className="secondary" disabled={state.fetching}>
        کنار گذاشتن
      </button>
    </form>
  );
}

type RefundFields = { amount?: string; destinationCard?: string; destinationSheba?: string; reference?: string; note?: string };

function readRefund(form: FormData, unit: 'toman' | 'rial'): RefundFields | string {
  const text = (name: string) => String(form.get(name) ?? '').trim();
  const fields: RefundFields = {};
  if (text('amount')) {
    const rials = parseAmount(text('amount'), unit);
    if (!rials) return 'مبلغ را با رقم بنویسید.';
    fields.amount = rials;
  }
  const destination = latinDigits(text('destination')).replace(/[\s-]/g, '').toUpperCase();
  if (/^\d{16}$/.test(destination)) fields.destinationCard = destination;
  else if (/^IR\d{24}$/.test(destination)) fields.destinationSheba = destination;
  else if (destination) return 'مقصد: شمارهٔ کارت ۱۶ رقمی یا شبا (IR و ۲۴ رقم).';
  if (text('reference')) fields.reference = text('reference');
  if (text('note')) fields.note = text('note');
  return fields;
}

/** A refund the merchant paid from their bank: of a payment, or of a deposit that was no payment's. */
function RefundFormInner(props: ({ paymentId: string } | { messageId: string }) & MoneyContext) {
  const id = useId();
  const { unit } = useUnit();
  const [paymentState, recordRefund] = useMutation(RecordRefund);
  const [messageState, refundMessage] = useMutation(RefundMessage);
  const [problem, setProblem] = useState<string | null>(null);
  const [asking, setAsking] = useState<RefundFields | null>(null);
  const state = 'paymentId' in props ? paymentState : messageState;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const fields = readRefund(new FormData(e.currentTarget), unit);
    if (typeof fields === 'string') return setProblem(fields);
    if ('paymentId' in props && !fields.amount) return setProblem('مبلغ بازپرداخت را بنویسید.');
    setProblem(null);
    setAsking(fields);
  };
  const run = async () => {
    const fields = asking;
    setAsking(null);
    if (!fields) return;
    // The answer is a Refund: the pages that show its payment or deposit are read again.
    if ('paymentId' in props) {
      if (!fields.amount) return setProblem('مبلغ بازپرداخت را بنویسید.');
      await recordRefund({ paymentId: props.paymentId, input: { ...fields, amount: fields.amount } }, { additionalTypenames: ['Payment'] });
    } else {
      await refundMessage({ messageId: props.messageId, input: fields }, { additionalTypenames: ['BankMessage'] });
    }
  };
  const unitName = unit === 'toman' ? 'تومان' : 'ریال';
  const refundable = errorDetails(state.error).refundable;
  return (
    <form className="action refund" onSubmit={submit}>
      <label htmlFor={`${id}-amount`}>
        مبلغ بازپرداخت به {unitName}
        {'messageId' in props ? ' (خالی: کل واریز)' : ''}
      </label>
      <input id={`${id}-amount`} name="amount" inputMode="numeric" dir="ltr" required={'paymentId' in props} />
      <label htmlFor={`${id}-destination`}>کارت یا شبای مقصد</label>
      <input id={`${id}-destination`} name="destination" dir="ltr" autoComplete="off" />
      <label htmlFor={`${id}-reference`}>شمارهٔ پیگیری بانک</label>
      <input id={`${id}-reference`} name="reference" dir="ltr" maxLength={100} />
      <label htmlFor={`${id}-note`}>یادداشت</label>
      <input id={`${id}-note`} name="note" maxLength={500} />
      <ErrorNote text={problem} />
      {!problem && <ErrorNote error={state.error} />}
      {typeof refundable === 'string' && (
        <p className="muted">
          قابل بازپرداخت: <Amount rials={refundable} />
        </p>
      )}
      <Done text={state.data ? 'بازپرداخت ثبت شد.' : null} />
      {asking ? (
        <AskOnce
          question={
            <>
              بازپرداخت {asking.amount ? <Amount rials={asking.amount} /> : props.amount ? <>کل <Amount rials={props.amount} /></> : 'کل واریز'}{' '}
              {'paymentId' in props ? (
                <>
                  برای <Order order={props.order} />
                </>
              ) : (
                'این واریز'
              )}{' '}
              ثبت شود؟
            </>
          }
          yes="بله، ثبت شود"
          busy={state.fetching}
          onYes={() => void run()}
          onNo={() => setAsking(null)}
        />
      ) : (
        <button type="submit" className="secondary" disabled={state.fetching}>
          ثبت بازپرداخت
        </button>
      )}
    </form>
  );
}

/** A decision's form, left out for a role that cannot decide (viewer). */
function forDeciders<P extends object>(Form: (props: P) => ReactNode) {
  return function Decision(props: P) {
    return useRole().canDecide ? <Form {...props} /> : null;
  };
}

export const ConfirmForm = forDeciders(ConfirmFormInner);
export const RejectForm = forDeciders(RejectFormInner);
export const AttachForm = forDeciders(AttachFormInner);
export const DismissForm = forDeciders(DismissFormInner);
export const RefundForm = forDeciders(RefundFormInner);
