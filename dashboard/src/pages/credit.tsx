import { useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../graphql.js';
import { LEDGER_KIND, label } from '../labels.js';
import { BASE, Link, useTitle } from '../router.js';
import { Amount } from '../unit.js';
import { DateTime, Empty, ErrorNote, Facts, Loading, PageTitle, Section } from '../ui/common.js';

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
            {node.note && <p className="muted">{node.note}</p>}
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
      <Section title="دفتر گردش اعتبار">
        {pages.map((after, i) => (
          <LedgerPage key={after ?? 'first'} after={after} isLast={i === pages.length - 1} onMore={(c) => setPages([...pages, c])} />
        ))}
      </Section>
    </>
  );
}
