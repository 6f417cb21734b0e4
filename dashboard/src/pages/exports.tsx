import { useState } from 'react';
import { formatJalali, isoJalali, jalaliToday, parseJalali } from '../jalali.js';
import { PAYMENT_STATUS } from '../labels.js';
import { useTitle } from '../router.js';
import { useMode } from '../mode.js';
import { useModeProjects } from '../projects.js';
import { ErrorNote, PageTitle, Section } from '../ui/common.js';

/**
 * Files from GET /v1/exports/{payments|bank-messages|ledger}: plain links, so the browser sends the
 * session cookie and saves the streamed file itself. The API takes Jalali dates as they are. Files for
 * people: `lang=fa` (Persian headers and statuses, a right-to-left sheet). Every project of the side
 * shown (live, or test under /dashboard/test: `mode`) or one of them: a file never mixes the two.
 */
/** The project choice that exports every project of the side shown. */
const ALL = '';

const KINDS = [
  ['payments', 'پرداخت‌ها'],
  ['bank-messages', 'پیامک‌های بانک'],
  ['ledger', 'دفتر اعتبار و کارمزد'],
] as const;

export function ExportsPage() {
  useTitle('خروجی‌ها');
  const projects = useModeProjects();
  const mode = useMode();
  const today = jalaliToday();
  const [from, setFrom] = useState(formatJalali({ ...today, jd: 1 }));
  const [to, setTo] = useState(formatJalali(today));
  const [chosen, setProjectId] = useState(ALL);
  const projectId = projects.some((p) => p.id === chosen) ? chosen : ALL;
  const [status, setStatus] = useState('');
  const fromDate = parseJalali(from);
  const toDate = parseJalali(to);
  const link = (kind: string, format: 'csv' | 'xlsx', withStatus: boolean) => {
    const q = new URLSearchParams({ format, lang: 'fa', mode });
    if (fromDate) q.set('from', isoJalali(fromDate));
    if (toDate) q.set('to', isoJalali(toDate));
    if (projectId) q.set('projectId', projectId);
    if (withStatus && status) q.set('status', status);
    return `/v1/exports/${kind}?${q.toString()}`;
  };
  return (
    <>
      <PageTitle>خروجی‌ها</PageTitle>
      <Section title="بازه و پالایه">
        <div className="grid-form">
          <div className="field">
            <label htmlFor="x-from">از تاریخ</label>
            <input id="x-from" value={from} onChange={(e) => setFrom(e.target.value)} inputMode="numeric" />
          </div>
          <div className="field">
            <label htmlFor="x-to">تا تاریخ (خود روز هم)</label>
            <input id="x-to" value={to} onChange={(e) => setTo(e.target.value)} inputMode="numeric" />
          </div>
          <div className="field">
            <label htmlFor="x-project">پروژه</label>
            <select id="x-project" value={projectId} onChange={(e) => setProjectId(e.target.value)}>
              <option value={ALL}>همهٔ پروژه‌ها</option>
              {projects.map((p) => (
                <option key={p.id} value={p.id} translate="no">
                  {p.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="x-status">وضعیت پرداخت</label>
            <select id="x-status" value={status} onChange={(e) => setStatus(e.target.value)}>
              <option value="">همه</option>
              {Object.entries(PAYMENT_STATUS).map(([code, text]) => (
                <option key={code} value={code}>
                  {text}
                </option>
              ))}
            </select>
          </div>
        </div>
        <ErrorNote text={(from && !fromDate) || (to && !toDate) ? 'تاریخ را به شکل ۱۴۰۵/۰۹/۰۴ بنویسید.' : null} />
        <p className="muted">ستون‌ها و وضعیت‌ها فارسی‌اند، تاریخ‌ها شمسی به وقت تهران (و به شکل استاندارد بین‌المللی) و مبلغ‌ها به ریال.</p>
        {projects.length === 0 && <p className="muted">پروژه‌ای در این بخش نیست.</p>}
      </Section>
      {KINDS.map(([kind, title]) => (
        <Section key={kind} title={title}>
          <p className="buttons">
            <a className="button" href={link(kind, 'xlsx', kind === 'payments')} download data-export={`${kind}-xlsx`}>
              دریافت فایل اکسل
            </a>
            <a className="button secondary" href={link(kind, 'csv', kind === 'payments')} download data-export={`${kind}-csv`}>
              دریافت فایل متنی (سی‌اس‌وی)
            </a>
          </p>
        </Section>
      ))}
    </>
  );
}
