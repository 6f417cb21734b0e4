import { useCallback, useMemo, useRef, useState, type FormEvent } from 'react';
import { PaymentRowFragment, type PaymentRowData } from '../fragments.js';
import { graphql } from '../graphql.js';
import { amountInput, faDigits, faNumber, latinDigits, parseAmount } from '../format.js';
import { dayRange, formatJalali, parseJalali } from '../jalali.js';
import { PAYMENT_STATUS } from '../labels.js';
import { usePaymentEvents } from '../live.js';
import { href, navigate, useLocation, useTitle } from '../router.js';
import { Empty, ErrorNote, Loading, PageTitle } from '../ui/common.js';
import { PaymentRow } from '../ui/payment-row.js';
import { useModeProjects } from '../projects.js';
import { Amount } from '../unit.js';
import { useDeferredQuery } from '../query.js';
import { useUnit } from '../unit.js';

const Payments = graphql(
  `
    query DashboardPayments(
      $after: String
      $projectId: ID
      $status: PaymentStatus
      $reviewRequired: Boolean
      $reported: Boolean
      $orderId: String
      $from: DateTime
      $to: DateTime
      $amount: Amount
      $cardLast4: String
      $sandbox: Boolean!
    ) {
      payments(
        first: 20
        after: $after
        projectId: $projectId
        status: $status
        reviewRequired: $reviewRequired
        reported: $reported
        orderId: $orderId
        from: $from
        to: $to
        amount: $amount
        cardLast4: $cardLast4
        sandbox: $sandbox
      ) {
        totalCount
        totalAmount
        totalReceived
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          node {
            ...PaymentRow
          }
        }
      }
    }
  `,
  [PaymentRowFragment],
);

type Status = 'pending' | 'confirmed' | 'expired' | 'canceled' | 'rejected';
const STATUSES = Object.keys(PAYMENT_STATUS) as Status[];

type Filters = {
  /** The side shown: live, or test under /dashboard/test (never both). */
  sandbox: boolean;
  projectId?: string;
  status?: Status;
  reviewRequired?: boolean;
  reported?: boolean;
  orderId?: string;
  from?: string;
  to?: string;
  /** Rials, as the API takes it (the URL keeps rials too, whatever unit the page shows). */
  amount?: string;
  cardLast4?: string;
};

/**
 * The filters live in the URL (bookmarkable): project, status, review, reported, from, to, order,
 * amount (rials, whichever unit the page shows) and card (a card's last four digits).
 */
function readFilters(query: URLSearchParams, sandbox: boolean): { filters: Filters; invalid: string | null } {
  const filters: Filters = { sandbox };
  const project = query.get('project');
  if (project) filters.projectId = project;
  const status = query.get('status');
  if (status && (STATUSES as string[]).includes(status)) filters.status = status as Status;
  const review = query.get('review');
  if (review === 'yes' || review === 'no') filters.reviewRequired = review === 'yes';
  if (query.get('reported') === 'yes') filters.reported = true;
  const order = query.get('order');
  if (order) filters.orderId = order;
  const from = query.get('from') ? parseJalali(query.get('from') ?? '') : null;
  const to = query.get('to') ? parseJalali(query.get('to') ?? '') : null;
  if ((query.get('from') && !from) || (query.get('to') && !to)) return { filters, invalid: 'تاریخ را به شکل ۱۴۰۵/۰۹/۰۴ بنویسید.' };
  if (from) filters.from = dayRange(from).from;
  if (to) filters.to = dayRange(to).to;
  const amount = query.get('amount');
  if (amount) {
    if (!/^[0-9]{1,15}$/.test(amount)) return { filters, invalid: 'مبلغ را فقط با رقم بنویسید.' };
    filters.amount = amount;
  }
  const card = query.get('card');
  if (card) {
    if (!/^[0-9]{4}$/.test(card)) return { filters, invalid: 'چهار رقم آخر کارت را بنویسید، مثلاً ۵۶۷۸.' };
    filters.cardLast4 = card;
  }
  return { filters, invalid: null };
}

function FilterForm({ query }: { query: URLSearchParams }) {
  const projects = useModeProjects();
  const { unit } = useUnit();
  const unitName = unit === 'toman' ? 'تومان' : 'ریال';
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const value = (name: string) => String(form.get(name) ?? '').trim() || undefined;
    const date = (name: string) => {
      const parsed = value(name) ? parseJalali(value(name) ?? '') : null;
      return parsed ? formatJalali(parsed) : value(name);
    };
    // Typed in the unit shown, kept in rials; what is no amount stays as typed, and the page says so.
    const amount = value('amount') ? (parseAmount(value('amount') ?? '', unit) ?? value('amount')) : undefined;
    const card = value('card') ? latinDigits(value('card') ?? '').replace(/\s/g, '') : undefined;
    navigate(
      href('/payments', {
        project: value('project'),
        status: value('status'),
        review: value('review'),
        reported: form.get('reported') ? 'yes' : undefined,
        order: value('order'),
        from: date('from'),
        to: date('to'),
        amount,
        card,
      }),
    );
  };
  return (
    <form className="panel filters" onSubmit={submit} key={`${query.toString()}|${unit}`} aria-label="پالایش پرداخت‌ها">
      <div className="field">
        <label htmlFor="f-project">پروژه</label>
        <select id="f-project" name="project" defaultValue={query.get('project') ?? ''}>
          <option value="">همه</option>
          {projects.map((p) => (
            <option key={p.id} value={p.id} translate="no">
              {p.name}
              {p.sandbox ? ' (آزمایشی)' : ''}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="f-status">وضعیت</label>
        <select id="f-status" name="status" defaultValue={query.get('status') ?? ''}>
          <option value="">همه</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {PAYMENT_STATUS[s]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="f-review">بررسی</label>
        <select id="f-review" name="review" defaultValue={query.get('review') ?? ''}>
          <option value="">همه</option>
          <option value="yes">نیازمند بررسی</option>
          <option value="no">بدون نیاز به بررسی</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="f-from">از تاریخ</label>
        <input id="f-from" name="from" inputMode="numeric" placeholder="۱۴۰۵/۰۹/۰۱" defaultValue={query.get('from') ?? ''} />
      </div>
      <div className="field">
        <label htmlFor="f-to">تا تاریخ</label>
        <input id="f-to" name="to" inputMode="numeric" placeholder="۱۴۰۵/۰۹/۳۰" defaultValue={query.get('to') ?? ''} />
      </div>
      <div className="field">
        <label htmlFor="f-amount">مبلغ به {unitName}</label>
        <input
          id="f-amount"
          name="amount"
          inputMode="numeric"
          autoComplete="off"
          placeholder={unit === 'toman' ? '۱۵۰٬۰۰۰' : '۱٬۵۰۰٬۰۰۰'}
          defaultValue={amountInput(query.get('amount'), unit)}
        />
      </div>
      <div className="field">
        <label htmlFor="f-card">چهار رقم آخر کارت</label>
        <input
          id="f-card"
          name="card"
          inputMode="numeric"
          autoComplete="off"
          maxLength={4}
          dir="ltr"
          placeholder="۵۶۷۸"
          defaultValue={query.get('card') ? faDigits(query.get('card') ?? '') : ''}
        />
      </div>
      <div className="field">
        <label htmlFor="f-order">شناسهٔ سفارش</label>
        <input id="f-order" name="order" dir="ltr" defaultValue={query.get('order') ?? ''} />
      </div>
      <div className="field check">
        <input id="f-reported" name="reported" type="checkbox" defaultChecked={query.get('reported') === 'yes'} />
        <label htmlFor="f-reported">پرداخت‌کننده گزارش داده و تأیید نشده</label>
      </div>
      <div className="field buttons">
        <button type="submit">نمایش</button>
        <button type="button" className="secondary" onClick={() => navigate(href('/payments'))}>
          پاک کردن
        </button>
      </div>
    </form>
  );
}

type PageProps = {
  filters: Filters;
  after: string | null;
  live: Map<string, PaymentRowData>;
  seen: Set<string>;
  onMore: (cursor: string) => void;
  isLast: boolean;
  refreshKey: number;
};

/** One page of 50; the last page offers the next one. */
function ResultPage({ filters, after, live, seen, onMore, isLast, refreshKey }: PageProps) {
  const variables = useMemo(() => ({ ...filters, after }), [filters, after]);
  const context = useMemo(() => ({ refreshKey }), [refreshKey]);
  const [result] = useDeferredQuery({ query: Payments, variables, context, requestPolicy: refreshKey ? 'network-only' : 'cache-and-network' });
  const data = result.data?.payments;
  if (!data) return result.error ? <ErrorNote error={result.error} /> : <Loading />;
  for (const edge of data.edges) seen.add(edge.node.id);
  return (
    <>
      {after === null && (
        <p className="muted" id="payments-total" data-count={data.totalCount} data-total-amount={data.totalAmount} data-total-received={data.totalReceived}>
          {faNumber(data.totalCount)} پرداخت، جمع مبلغ‌ها <Amount rials={data.totalAmount} />، دریافتی خالص <Amount rials={data.totalReceived} />
        </p>
      )}
      {after === null && data.edges.length === 0 && <Empty>پرداختی با این پالایه نیست.</Empty>}
      <ul className="rows" aria-label="پرداخت‌ها">
        {data.edges.map(({ node }) => (
          <PaymentRow key={node.id} payment={live.get(node.id) ?? node} />
        ))}
      </ul>
      {isLast && data.pageInfo.hasNextPage && data.pageInfo.endCursor && (
        <button type="button" className="secondary more" onClick={() => onMore(data.pageInfo.endCursor ?? '')}>
          پرداخت‌های بیشتر
        </button>
      )}
    </>
  );
}

export function PaymentsPage() {
  useTitle('پرداخت‌ها');
  const { query, mode } = useLocation();
  const key = `${mode}|${query.toString()}`;
  const { filters, invalid } = useMemo(() => readFilters(new URLSearchParams(query.toString()), mode === 'test'), [key]);
  const [cursors, setCursors] = useState<{ key: string; list: (string | null)[] }>({ key, list: [null] });
  const pages = cursors.key === key ? cursors.list : [null];
  const [live, setLive] = useState(() => new Map<string, PaymentRowData>());
  const [refreshKey, setRefreshKey] = useState(0);
  const seen = useRef(new Set<string>()).current;
  usePaymentEvents(
    useCallback(
      (event) => {
        if (!event) return setRefreshKey((n) => n + 1);
        setLive((prev) => new Map(prev).set(event.payment.id, event.payment));
        // A payment not on screen may belong on the first page now: ask for it again.
        if (!seen.has(event.payment.id)) setRefreshKey((n) => n + 1);
      },
      [seen],
    ),
  );
  return (
    <>
      <PageTitle>پرداخت‌ها{mode === 'test' ? ' (آزمایشی)' : ''}</PageTitle>
      <FilterForm query={query} />
      <ErrorNote text={invalid} />
      {!invalid &&
        pages.map((after, i) => (
          <ResultPage
            key={after ?? 'first'}
            filters={filters}
            after={after}
            live={live}
            seen={seen}
            isLast={i === pages.length - 1}
            refreshKey={i === 0 ? refreshKey : 0}
            onMore={(cursor) => setCursors({ key, list: [...pages, cursor] })}
          />
        ))}
    </>
  );
}
