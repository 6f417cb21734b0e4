import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { faNumber } from '../format.js';
import { graphql, type ResultOf } from '../graphql.js';
import { usePaymentEvents } from '../live.js';
import { useRole } from '../role.js';
import { Amount } from '../unit.js';
import { AskOnce, DateTime, Empty, ErrorNote, Loading, Section } from './common.js';
import { OrderTitle } from './data.js';

/**
 * Balance gaps (docs/exceptions.md "Lost messages: balance gaps"): money the card's balance says
 * came without its SMS. The review queue lists the open ones with the payments they could be; the
 * merchant gives the money to one (after a second look at the amount and the order) or dismisses
 * the gap with a note. The card's page shows its open gaps.
 */
const GapFields = graphql(`
  fragment BalanceGapCard on BalanceGap {
    id
    amount
    status
    detectedAt
    fromBalance
    card {
      id
      cardNumber
    }
    toMessage {
      id
      balance
      amount
      bankTime
    }
    candidates {
      reason
      payment {
        id
        orderId
        status
        amountFinal
        createdAt
      }
    }
  }
`);

const OpenGaps = graphql(
  `
    query DashboardOpenGaps {
      balanceGaps(status: open, first: 10) {
        edges {
          node {
            ...BalanceGapCard
          }
        }
      }
    }
  `,
  [GapFields],
);

const CardGaps = graphql(
  `
    query DashboardCardGaps($id: ID!) {
      node(id: $id) {
        ... on Card {
          id
          openGaps {
            ...BalanceGapCard
          }
        }
      }
    }
  `,
  [GapFields],
);

const Resolve = graphql(`
  mutation DashboardResolveGap($id: ID!, $paymentId: ID, $note: String) {
    resolveBalanceGap(id: $id, paymentId: $paymentId, note: $note) {
      id
      status
      resolvedPayment {
        id
        status
      }
    }
  }
`);

type Gap = ResultOf<typeof GapFields>;

/**
 * The gaps a list shows: the open ones as the server gives them, and the ones decided here since,
 * in the place they had. The server's list drops a gap the moment it is decided (the decision
 * refetches it), which would take the decision's answer off the page before the merchant read it.
 */
function useKeptGaps(open: readonly Gap[] | undefined) {
  const [kept, setKept] = useState<ReadonlySet<string>>(() => new Set());
  const last = useRef<readonly Gap[]>([]);
  let gaps: Gap[] | undefined;
  if (open) {
    const openIds = new Set(open.map((g) => g.id));
    gaps = [...open];
    last.current.forEach((g, at) => {
      if (kept.has(g.id) && !openIds.has(g.id)) gaps!.splice(Math.min(at, gaps!.length), 0, g);
    });
  }
  useEffect(() => {
    if (gaps) last.current = gaps;
  });
  const keep = (id: string) => setKept((ids) => new Set(ids).add(id));
  return { gaps, keep };
}

/** The two decisions on an open gap: give its money to a candidate, or dismiss it with a note. */
function GapDecision({ gap, onDecide }: { gap: Gap; onDecide: (id: string) => void }) {
  const id = useId();
  const [state, resolve] = useMutation(Resolve);
  const [asking, setAsking] = useState<{ paymentId: string | null; note: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const chosen = asking?.paymentId ? gap.candidates.find((c) => c.payment.id === asking.paymentId)?.payment : null;
  const dismiss = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const note = String(new FormData(e.currentTarget).get('note') ?? '').trim();
    if (!note) return setProblem('برای کنار گذاشتن شکاف، یادداشت لازم است.');
    setProblem(null);
    setAsking({ paymentId: null, note });
  };
  const run = () => {
    if (!asking) return;
    setAsking(null);
    onDecide(gap.id);
    void resolve({ id: gap.id, paymentId: asking.paymentId, note: asking.note || null }, { additionalTypenames: ['BalanceGap', 'Payment', 'BankMessage'] });
  };
  if (state.data) return <p className="ok" role="status">{state.data.resolveBalanceGap.status === 'resolved' ? 'پرداخت با این پول تأیید شد.' : 'شکاف کنار گذاشته شد.'}</p>;
  return (
    <div className="gap-decision">
      {gap.candidates.length > 0 && (
        <ul className="candidates">
          {gap.candidates.map((c) => (
            <li key={c.payment.id} className="candidate" data-gap-candidate-payment-id={c.payment.id}>
              <span className="tag">پیامک گم‌شده</span> <OrderTitle payment={c.payment} /> · <Amount rials={c.payment.amountFinal} /> · <DateTime iso={c.payment.createdAt} />
              <button type="button" className="small" disabled={state.fetching} onClick={() => setAsking({ paymentId: c.payment.id, note: '' })}>
                این پول همین پرداخت است
              </button>
            </li>
          ))}
        </ul>
      )}
      <details>
        <summary>کنار گذاشتن شکاف (پرداختی نیست)</summary>
        <form className="action" onSubmit={dismiss}>
          <label htmlFor={`${id}-note`}>یادداشت (لازم)</label>
          <textarea id={`${id}-note`} name="note" rows={2} maxLength={500} required />
          <button type="submit" className="secondary small" disabled={state.fetching}>
            کنار گذاشتن
          </button>
        </form>
      </details>
      {asking && (
        <AskOnce
          question={
            asking.paymentId && chosen ? (
              <>
                <OrderTitle payment={chosen} /> با <Amount rials={gap.amount} /> از این شکاف، بدون پیامک بانک تأیید شود؟ فروشگاه آن را پرداخت‌شده می‌بیند.
              </>
            ) : (
              <>
                شکاف <Amount rials={gap.amount} /> کنار گذاشته شود؟ پرداختی با آن تأیید نمی‌شود.
              </>
            )
          }
          yes={asking.paymentId ? 'بله، تأیید شود' : 'بله، کنار گذاشته شود'}
          busy={state.fetching}
          onYes={run}
          onNo={() => setAsking(null)}
        />
      )}
      <ErrorNote text={problem} />
      {!problem && <ErrorNote error={state.error} />}
    </div>
  );
}

function GapItem({ gap, onDecide }: { gap: Gap; onDecide: (id: string) => void }) {
  const { canDecide } = useRole();
  const positive = !gap.amount.startsWith('-');
  return (
    <li className="row" data-gap-id={gap.id}>
      <div className="row-main">
        <strong>{positive ? 'واریز بی‌پیامک' : 'برداشت بی‌پیامک'}</strong> <Amount rials={gap.amount.replace(/^-/, '')} />
        <span className="muted"> · کارت …{faNumber(gap.card.cardNumber.slice(-4))} · <DateTime iso={gap.detectedAt} /></span>
      </div>
      <p className="muted">
        موجودی کارت از <Amount rials={gap.fromBalance} /> به <Amount rials={gap.toMessage.balance ?? '0'} /> رسیده، ولی پیامک همهٔ تراکنش‌های میان آن‌ها نرسیده است. اگر پیامک گم‌شده برسد، این شکاف خودبه‌خود بسته
        می‌شود.
      </p>
      {canDecide && <GapDecision gap={gap} onDecide={onDecide} />}
    </li>
  );
}

/** The review queue's section: open gaps, newest first, each with its candidates. */
export function BalanceGapQueue() {
  const [result, refetch] = useQuery({ query: OpenGaps });
  usePaymentEvents(() => refetch({ requestPolicy: 'network-only' }));
  const edges = result.data?.balanceGaps.edges;
  const { gaps, keep } = useKeptGaps(edges?.map((e) => e.node));
  return (
    <Section title={edges ? `پیامک‌های گم‌شده (شکاف موجودی) (${faNumber(edges.length)})` : 'پیامک‌های گم‌شده (شکاف موجودی)'}>
      {!gaps ? (
        result.error ? <ErrorNote error={result.error} /> : <Loading />
      ) : gaps.length === 0 ? (
        <Empty>شکافی در موجودی کارت‌ها نیست.</Empty>
      ) : (
        <ul className="rows" id="review-gaps">
          {gaps.map((gap) => (
            <GapItem key={gap.id} gap={gap} onDecide={keep} />
          ))}
        </ul>
      )}
    </Section>
  );
}

/** A card's open gaps, on its page (nothing when it has none). */
export function CardOpenGaps({ cardId }: { cardId: string }) {
  const [result] = useQuery({ query: CardGaps, variables: { id: cardId } });
  const node = result.data?.node;
  const open = node && 'openGaps' in node ? node.openGaps : [];
  const { gaps = [], keep } = useKeptGaps(open);
  if (gaps.length === 0) return null;
  return (
    <div className="card-gaps" data-card-gaps={cardId}>
      {open.length > 0 && <p className="row-flag" role="note">این کارت {faNumber(open.length)} شکاف موجودی باز دارد (پیامک واریزی که نرسید):</p>}
      <ul className="rows">
        {gaps.map((g) => (
          <GapItem key={g.id} gap={g} onDecide={keep} />
        ))}
      </ul>
    </div>
  );
}
