import { lazy, Suspense, useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useAttention } from '../attention.js';
import { graphql } from '../graphql.js';
import { faNumber } from '../format.js';
import { formatJalali, isoJalali, jalaliToday, parseJalali } from '../jalali.js';
import { usePaymentEvents } from '../live.js';
import { BASE, href, Link, navigate, useLocation, useTitle } from '../router.js';
import { useModeProjects } from '../projects.js';
import { Amount, useUnit } from '../unit.js';
import { ErrorNote, Loading, PageTitle, Section } from '../ui/common.js';
import { useDeferredQuery } from '../query.js';

const NetChart = lazy(() => import('../ui/chart.js'));

/**
 * Today, this Jalali month and any range (Tehran), from paymentStats: the side shown only (live, or
 * test under /dashboard/test), all projects of that side or one; the totals are net of refunds. The
 * number waiting for a decision is the badge's own (reviewQueue, through useAttention).
 */
const Overview = graphql(`
  query DashboardOverview($sandbox: Boolean!, $projectId: ID, $from: String!, $to: String!, $groupBy: StatsPeriodKind!) {
    today: paymentStats(range: TODAY, groupBy: TOTAL, sandbox: $sandbox, projectId: $projectId) {
      period
      confirmedCount
      netAmount
      refundedAmount
      pendingCount
      fees
    }
    month: paymentStats(range: THIS_MONTH, groupBy: TOTAL, sandbox: $sandbox, projectId: $projectId) {
      period
      confirmedCount
      netAmount
      refundedAmount
      pendingCount
      fees
    }
    total: paymentStats(from: $from, to: $to, groupBy: TOTAL, sandbox: $sandbox, projectId: $projectId) {
      period
      confirmedCount
      netAmount
      refundedAmount
      pendingCount
      fees
    }
    periods: paymentStats(from: $from, to: $to, groupBy: $groupBy, sandbox: $sandbox, projectId: $projectId) {
      period
      netAmount
      confirmedCount
    }
    viewer {
      merchant {
        id
        credit {
          available
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

type Figures = { confirmedCount: number; netAmount: string; refundedAmount: string; pendingCount: number; fees: string };
const NONE: Figures = { confirmedCount: 0, netAmount: '0', refundedAmount: '0', pendingCount: 0, fees: '0' };
const one = (periods: readonly Figures[]): Figures => periods[0] ?? NONE;

function Stat({ label, children, id }: { label: string; children: ReactNode; id: string }) {
  return (
    <div className="stat" id={id}>
      <p className="stat-label">{label}</p>
      <p className="stat-value">{children}</p>
    </div>
  );
}

function PeriodFigures({ id, stats }: { id: string; stats: Figures }) {
  return (
    <div className="stats">
      <Stat id={`${id}-confirmed-count`} label="تأییدشده">
        {faNumber(stats.confirmedCount)}
      </Stat>
      <Stat id={`${id}-confirmed-sum`} label="جمع دریافتی (خالص)">
        <span data-rials={stats.netAmount}>
          <Amount rials={stats.netAmount} />
        </span>
      </Stat>
      <Stat id={`${id}-refunded`} label="بازپرداخت‌شده">
        <Amount rials={stats.refundedAmount} />
      </Stat>
      <Stat id={`${id}-pending`} label="در انتظار">
        {faNumber(stats.pendingCount)}
      </Stat>
    </div>
  );
}

/** A period's label on the chart: a day as «۰۹/۰۸», a month as «۱۴۰۵/۰۹». */
function shortPeriod(period: string): string {
  const parts = period.split('-');
  return parts.length === 3 ? `${parts[1]}/${parts[2]}` : parts.join('/');
}

type Period = { period: string; netAmount: string; confirmedCount: number };

/** The range's figures and its chart (drawn once it nears the screen: its chunk is fetched then). */
function RangeSection({ total, periods, groupBy }: { total: Figures; periods: readonly Period[]; groupBy: 'DAY' | 'MONTH' }) {
  const { unit } = useUnit();
  const box = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  // The table is rendered once opened: a month of rows costs the first paint nothing.
  const [table, setTable] = useState(false);
  useEffect(() => {
    const el = box.current;
    if (!el || near) return;
    if (typeof IntersectionObserver === 'undefined') return setNear(true);
    const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: '200px' });
    seen.observe(el);
    return () => seen.disconnect();
  }, [near]);
  const points = useMemo(() => periods.map((p) => ({ label: shortPeriod(p.period), value: Number(BigInt(p.netAmount) / (unit === 'toman' ? 10n : 1n)) })), [periods, unit]);
  const unitName = unit === 'toman' ? 'تومان' : 'ریال';
  return (
    <>
      <PeriodFigures id="range" stats={total} />
      <figure className="chart-figure">
        <figcaption>
          جمع دریافتی خالص هر {groupBy === 'DAY' ? 'روز' : 'ماه'} به {unitName}
        </figcaption>
        <div ref={box} className="chart-box">
          {near && (
            <Suspense fallback={<div className="chart" />}>
              <NetChart points={points} unitName={unitName} />
            </Suspense>
          )}
        </div>
        <details onToggle={(e) => setTable(e.currentTarget.open)}>
          <summary>جدول نمودار</summary>
          {table && (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{groupBy === 'DAY' ? 'روز' : 'ماه'}</th>
                <th scope="col">تأییدشده</th>
                <th scope="col">جمع خالص</th>
              </tr>
            </thead>
            <tbody>
              {periods.map((p) => (
                <tr key={p.period}>
                  <td>{formatPeriod(p.period)}</td>
                  <td>{faNumber(p.confirmedCount)}</td>
                  <td>
                    <Amount rials={p.netAmount} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          )}
        </details>
      </figure>
    </>
  );
}

function formatPeriod(period: string): string {
  const [jy, jm, jd] = period.split('-').map(Number);
  return jd ? formatJalali({ jy: jy ?? 0, jm: jm ?? 0, jd }) : formatJalali({ jy: jy ?? 0, jm: jm ?? 0, jd: 1 }).slice(0, 7);
}

export function OverviewPage() {
  useTitle('نمای کلی');
  const { query, mode } = useLocation();
  const sandbox = mode === 'test';
  const projects = useModeProjects();
  const chosen = query.get('project');
  const projectId = chosen && projects.some((p) => p.id === chosen) ? chosen : null;
  const today = jalaliToday();
  const from = query.get('from') ?? formatJalali({ ...today, jd: 1 });
  const to = query.get('to') ?? formatJalali(today);
  const start = parseJalali(from);
  const end = parseJalali(to);
  const days = start && end ? Math.round((Date.UTC(end.jy, end.jm, end.jd) - Date.UTC(start.jy, start.jm, start.jd)) / 86_400_000) : 0;
  const groupBy = days > 62 ? ('MONTH' as const) : ('DAY' as const);
  const fallback = formatJalali(today);
  const variables = useMemo(
    () => ({ sandbox, projectId, from: isoJalali(start ?? { ...today, jd: 1 }), to: isoJalali(end ?? today), groupBy }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [sandbox, projectId, from, to, groupBy, fallback],
  );
  const [result, refetch] = useDeferredQuery({ query: Overview, variables });
  usePaymentEvents(() => refetch({ requestPolicy: 'network-only' }));
  const attention = useAttention();
  const [draft, setDraft] = useState({ from, to });
  const show = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    navigate(href('/', { project: projectId ?? undefined, from: draft.from, to: draft.to }));
  };
  const data = result.data;
  // One answer for the whole page: nothing below moves when the figures arrive.
  if (!data) return result.error ? <ErrorNote error={result.error} /> : <Loading />;
  const devices = (data.viewer?.merchant?.devices ?? []).filter((d) => !d.revoked);
  const credit = data.viewer?.merchant?.credit;
  return (
    <>
      <PageTitle>نمای کلی{sandbox ? ' (آزمایشی)' : ''}</PageTitle>
      <div className="inline-form overview-project">
        <label htmlFor="overview-project">پروژه</label>
        <select id="overview-project" value={projectId ?? ''} onChange={(e) => navigate(href('/', { project: e.target.value || undefined, from: query.get('from') ?? undefined, to: query.get('to') ?? undefined }))}>
          <option value="">همهٔ پروژه‌های {sandbox ? 'آزمایشی' : 'واقعی'}</option>
          {projects.map((p) => (
            <option key={p.id} value={p.id} translate="no">
              {p.name}
            </option>
          ))}
        </select>
      </div>
      <div className="grid-2">
        <Section title="امروز">
          <PeriodFigures id="today" stats={one(data.today)} />
        </Section>
        <Section title="این ماه">
          <PeriodFigures id="month" stats={one(data.month)} />
        </Section>
      </div>
      <Section title="بازهٔ دلخواه و نمودار">
        <form className="filters" onSubmit={show}>
          <div className="field">
            <label htmlFor="overview-from">از تاریخ</label>
            <input id="overview-from" name="from" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} inputMode="numeric" />
          </div>
          <div className="field">
            <label htmlFor="overview-to">تا تاریخ</label>
            <input id="overview-to" name="to" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} inputMode="numeric" />
          </div>
          <div className="buttons">
            <button type="submit">نمایش</button>
          </div>
        </form>
        {!start || !end ? <ErrorNote text="تاریخ را به شکل ۱۴۰۵/۰۹/۰۱ بنویسید." /> : <RangeSection total={one(data.total)} periods={data.periods} groupBy={groupBy} />}
      </Section>
      <div className="grid-2">
        <Section title="گوشی‌ها و تصمیم‌ها">
          <div className="stats">
            <Stat id="devices-online" label="گوشی‌های آنلاین">
              {faNumber(devices.filter((d) => d.online).length)} از {faNumber(devices.length)}
            </Stat>
            <Stat id="review-waiting" label="منتظر تصمیم شما">
              <span data-count={attention.count}>{faNumber(attention.count)}</span>
            </Stat>
          </div>
          <p>
            <Link to={`${BASE}/review`}>رفتن به صف بررسی</Link>
          </p>
        </Section>
        <Section title="اعتبار کارمزد">
          {sandbox ? (
            <p className="muted">پروژه‌های آزمایشی کارمزد ندارند و از اعتبار کم نمی‌کنند.</p>
          ) : credit ? (
            <div className="stats">
              <Stat id="credit-available" label="قابل استفاده">
                <Amount rials={credit.available} />
              </Stat>
              <Stat id="month-fees" label="کارمزد این ماه">
                <Amount rials={one(data.month).fees} />
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
