import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../graphql.js';
import { LEDGER_KIND, label } from '../labels.js';
import { BASE, Link, useTitle } from '../router.js';
import { Amount } from '../unit.js';
import { DateTime, Empty, ErrorNote, Facts, FieldProblem, Loading, PageTitle, Section } from '../ui/common.js';
import { Name } from '../ui/data.js';
import { useRole } from '../role.js';
import { useUnit } from '../unit.js';
import { parseAmount } from '../format.js';

/** The ledger's notes the system writes (English, for the log), as the merchant reads them. */
function ledgerNote(note: string) {
  if (note === 'payment fee') return 'کارمزد پرداخت';
  if (note.startsWith('payment fee (charged again')) return 'کارمزد پرداخت (دوباره، برای تأیید پس از مهلت)';
  if (note === 'opening credit') return 'اعتبار آغازین';
  if (note.startsWith('top-up payment')) return 'خرید اعتبار با پرداخت';
  return <Name>{note}</Name>;
}

const TopUps = graphql(`
  query DashboardTopUps {
    creditTopUpAvailable
    creditTopUps {
      amount
      credited
      creditedAt
      createdAt
      payment {
        id
        amountFinal
        checkoutUrl
      }
    }
  }
`);

const CreateTopUp = graphql(`
  mutation DashboardCreateTopUp($amount: Amount!) {
    createCreditTopUp(amount: $amount) {
      amount
      credited
      payment {
        id
        amountFinal
        checkoutUrl
      }
    }
  }
`);

/**
 * Buying fee credit through the gateway itself (createCreditTopUp): a payment on the operator's
 * top-up project, paid on its checkout page; the credit rises once it is confirmed. Without a
 * top-up project the page says to ask the operator.
 */
function TopUpSection() {
  const { unit } = useUnit();
  const { isOwner } = useRole();
  const [result, refetch] = useQuery({ query: TopUps });
  const [state, create] = useMutation(CreateTopUp);
  const [problem, setProblem] = useState<string | null>(null);
  const data = result.data;
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const rials = parseAmount(String(new FormData(e.currentTarget).get('amount') ?? ''), unit);
    if (!rials) return setProblem('مبلغ را با رقم بنویسید.');
    setProblem(null);
    const made = await create({ amount: rials });
    if (!made.error) refetch({ requestPolicy: 'network-only' });
  };
  return (
    <Section title="افزایش اعتبار">
      {!data ? (
        result.error ? <ErrorNote error={result.error} /> : <Loading />
      ) : !data.creditTopUpAvailable ? (
        <p className="muted" id="topup-unavailable">
          خرید اعتبار از داشبورد هنوز راه‌اندازی نشده است؛ برای افزایش اعتبار با اپراتور درگاه تماس بگیرید.
        </p>
      ) : (
        <>
          {isOwner && (
            <form className="inline-form" onSubmit={submit} noValidate id="topup-form">
              <label htmlFor="topup-amount">مبلغ اعتبار ({unit === 'toman' ? 'تومان' : 'ریال'})</label>
              <input id="topup-amount" name="amount" inputMode="numeric" dir="ltr" required />
              <button type="submit" disabled={state.fetching}>
                خرید اعتبار
              </button>
              <FieldProblem error={state.error} name="amount" />
              <ErrorNote text={problem} />
              {!problem && <ErrorNote error={state.error} />}
            </form>
          )}
          {state.data && (
            <p className="ok" role="status" id="topup-created">
              پرداخت <Amount rials={state.data.createCreditTopUp.payment.amountFinal} /> ساخته شد (دقیقاً همین مبلغ را کارت‌به‌کارت کنید):{' '}
              <a href={state.data.createCreditTopUp.payment.checkoutUrl} target="_blank" rel="noreferrer">
                رفتن به صفحهٔ پرداخت
              </a>
            </p>
          )}
          {data.creditTopUps.length > 0 && (
            <ul className="rows" aria-label="خریدهای اعتبار">
              {data.creditTopUps.map((t) => (
                <li key={t.payment.id} className="row" data-topup-payment-id={t.payment.id} data-credited={String(t.credited)}>
                  <div className="row-main">
                    <Amount rials={t.amount} />
                    <span className={`status ${t.credited ? 'status-confirmed' : 'status-pending'}`}>{t.credited ? 'افزوده شد' : 'در انتظار پرداخت'}</span>
                    <DateTime iso={t.createdAt} />
                  </div>
                  {!t.credited && (
                    <a href={t.payment.checkoutUrl} target="_blank" rel="noreferrer">
                      پرداخت <Amount rials={t.payment.amountFinal} />
                    </a>
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Section>
  );
}

const Credit = graphql(`
  query DashboardCredit($after: String) {
    viewer {
      merchant {
        id
        credit {
          available
          balance
          reserved
        }
        ledger(first: 25, after: $after) {
          pageInfo {
            hasNextPage
            endCursor
          }
          edges {
            node {
              id
              kind
              amount
              balanceAfter
              note
              paymentId
              createdAt
            }
          }
        }
      }
    }
  }
`);

function LedgerPage({ after, isLast, onMore }: { after: string | null; isLast: boolean; onMore: (cursor: string) => void }) {
  const [result] = useQuery({ query: Credit, variables: { after } });
  const ledger = result.data?.viewer?.merchant?.ledger;
  if (!ledger) return result.error ? <ErrorNote error={result.error} /> : <Loading />;
  if (after === null && ledger.edges.length === 0) return <Empty>هنوز گردشی نیست.</Empty>;
  return (
    <>
      <ul className="rows">
        {ledger.edges.map(({ node }) => (
          <li key={node.id} className="row" data-ledger-id={node.id}>
            <div className="row-main">
              <strong>{label(LEDGER_KIND, node.kind)}</strong>
              <Amount rials={node.amount} />
            </div>
            <div className="row-meta">
              <DateTime iso={node.createdAt} />
              <span>
                مانده: <Amount rials={node.balanceAfter} />
              </span>
              {node.paymentId && <Link to={`${BASE}/payments/${node.paymentId}`}>پرداخت</Link>}
            </div>
            {node.note && <p className="muted">{ledgerNote(node.note)}</p>}
          </li>
        ))}
      </ul>
      {isLast && ledger.pageInfo.hasNextPage && ledger.pageInfo.endCursor && (
        <button type="button" className="secondary more" onClick={() => onMore(ledger.pageInfo.endCursor ?? '')}>
          گردش‌های قدیمی‌تر
        </button>
      )}
    </>
  );
}

export function CreditPage() {
  useTitle('اعتبار و کارمزد');
  const [result] = useQuery({ query: Credit, variables: { after: null } });
  const [pages, setPages] = useState<(string | null)[]>([null]);
  const credit = result.data?.viewer?.merchant?.credit;
  return (
    <>
      <PageTitle>اعتبار و کارمزد</PageTitle>
      <Section title="اعتبار">
        {credit ? (
          <Facts
            items={[
              ['قابل استفاده', <Amount rials={credit.available} />],
              ['موجودی', <Amount rials={credit.balance} />],
              ['رزرو کارمزد پرداخت‌های باز', <Amount rials={credit.reserved} />],
            ]}
          />
        ) : result.error ? (
          <ErrorNote error={result.error} />
        ) : (
          <Loading />
        )}
        <p className="muted">کارمزد هر پرداخت تأییدشدهٔ واقعی از اعتبار کم می‌شود؛ پرداخت‌های آزمایشی کارمزد ندارند.</p>
      </Section>
      <TopUpSection />
      <Section title="دفتر گردش اعتبار">
        {pages.map((after, i) => (
          <LedgerPage key={after ?? 'first'} after={after} isLast={i === pages.length - 1} onMore={(c) => setPages([...pages, c])} />
        ))}
      </Section>
    </>
  );
}
