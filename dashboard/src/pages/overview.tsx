import { useMemo, type ReactNode } from 'react';
import { graphql } from '../graphql.js';
import { faNumber } from '../format.js';
import { isoJalali, jalaliToday } from '../jalali.js';
import { usePaymentEvents } from '../live.js';
import { BASE, Link, useTitle } from '../router.js';
import { Amount } from '../unit.js';
import { ErrorNote, Loading, PageTitle, Section } from '../ui/common.js';
import { useDeferredQuery } from '../query.js';

/** Today and this Jalali month (Tehran), from paymentStats; deposits, phones and credit beside. */
const Overview = graphql(`
  query DashboardOverview($today: String!, $monthStart: String!) {
    today: paymentStats(from: $today, to: $today, groupBy: DAY) {
      period
      confirmedCount
      confirmedAmount
      pendingCount
      reviewCount
      fees
    }
    month: paymentStats(from: $monthStart, to: $today, groupBy: MONTH) {
      period
      confirmedCount
      confirmedAmount
      pendingCount
      reviewCount
      fees
    }
    deposits: bankMessages(status: needs_review, first: 50) {
      edges {
        node {
          id
        }
      }
    }
    viewer {
      merchant {
        id
        credit {
          available
          balance
          reserved
        }
        devices {
          id
          online
          revoked
        }
      }
    }
  }
`);

type Stats = { confirmedCount: number; confirmedAmount: string; pendingCount: number; reviewCount: number; fees: string };
const NONE: Stats = { confirmedCount: 0, confirmedAmount: '0', pendingCount: 0, reviewCount: 0, fees: '0' };

/** One period expected; summed in case the range spans two (it never should). */
function total(periods: Stats[]): Stats {
  return periods.reduce(
    (a, p) => ({
      confirmedCount: a.confirmedCount + p.confirmedCount,
      confirmedAmount: (BigInt(a.confirmedAmount) + BigInt(p.confirmedAmount)).toString(),
      pendingCount: a.pendingCount + p.pendingCount,
      reviewCount: a.reviewCount + p.reviewCount,
      fees: (BigInt(a.fees) + BigInt(p.fees)).toString(),
    }),
    NONE,
  );
}

function Stat({ label, children, id }: { label: string; children: ReactNode; id: string }) {
  return (
    <div className="stat" id={id}>
      <p className="stat-label">{label}</p>
      <p className="stat-value">{children}</p>
    </div>
  );
}

export function OverviewPage() {
  useTitle('نمای کلی');
  const variables = useMemo(() => {
    const today = jalaliToday();
    return { today: isoJalali(today), monthStart: isoJalali({ ...today, jd: 1 }) };
  }, []);
  const [result, refetch] = useDeferredQuery({ query: Overview, variables });
  usePaymentEvents(() => refetch({ requestPolicy: 'network-only' }));
  const data = result.data;
  if (!data) return result.error ? <ErrorNote error={result.error} /> : <Loading />;
  const devices = (data.viewer?.merchant?.devices ?? []).filter((d) => !d.revoked);
  const credit = data.viewer?.merchant?.credit;
  const periods = [
    ['امروز', 'today', total(data.today)],
    ['این ماه', 'month', total(data.month)],
  ] as const;
  return (
    <>
      <PageTitle>نمای کلی</PageTitle>
      <div className="grid-2">
        {periods.map(([title, key, stats]) => (
          <Section key={key} title={title}>
            <div className="stats">
              <Stat id={`${key}-confirmed-count`} label="تأییدشده">
                {faNumber(stats.confirmedCount)}
              </Stat>
              <Stat id={`${key}-confirmed-sum`} label="جمع دریافتی">
                <Amount rials={stats.confirmedAmount} />
              </Stat>
              <Stat id={`${key}-pending`} label="در انتظار">
                {faNumber(stats.pendingCount)}
              </Stat>
              <Stat id={`${key}-review`} label="نیازمند بررسی">
                {faNumber(stats.reviewCount)}
              </Stat>
            </div>
          </Section>
        ))}
      </div>
      <div className="grid-2">
        <Section title="گوشی‌ها و واریزها">
          <div className="stats">
            <Stat id="devices-online" label="گوشی‌های آنلاین">
              {faNumber(devices.filter((d) => d.online).length)} از {faNumber(devices.length)}
            </Stat>
            <Stat id="deposits-review" label="واریزهای نیازمند بررسی">
              {faNumber(data.deposits.edges.length)}
            </Stat>
          </div>
          <p>
            <Link to={`${BASE}/review`}>رفتن به صف بررسی</Link>
          </p>
        </Section>
        <Section title="اعتبار کارمزد">
          {credit ? (
            <div className="stats">
              <Stat id="credit-available" label="قابل استفاده">
                <Amount rials={credit.available} />
              </Stat>
              <Stat id="month-fees" label="کارمزد این ماه">
                <Amount rials={total(data.month).fees} />
              </Stat>
            </div>
          ) : (
            <p className="muted">—</p>
          )}
          <p>
            <Link to={`${BASE}/credit`}>دفتر اعتبار و کارمزد</Link>
          </p>
        </Section>
      </div>
    </>
  );
}
