import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { Data, OrderTitle } from '../ui/data.js';
import { BankMessageFragment, PaymentRowFragment, type BankMessageData, type PaymentRowData } from '../fragments.js';
import { graphql } from '../graphql.js';
import { faNumber } from '../format.js';
import { CANDIDATE_REASON, REVIEW_REASON, label } from '../labels.js';
import { usePaymentEvents } from '../live.js';
import { BASE, Link, useMode, useTitle } from '../router.js';
import { ReadOnlyNote, useRole } from '../role.js';
import { Amount } from '../unit.js';
import { AttachForm, ConfirmForm, DismissForm, RefundForm, RejectForm } from '../ui/actions.js';
import { DateTime, Empty, ErrorNote, Loading, PageTitle, PaymentStatusBadge, Section } from '../ui/common.js';
import { MessageEvidence, type EvidenceData } from '../ui/message-card.js';
import { BalanceGapQueue } from '../ui/balance-gaps.js';

/**
 * Everything waiting for the merchant's decision: deposits first (money that came in), then
 * payments. Three queries, each within the server's cost limit; candidates carry only what a
 * decision needs.
 */
const Deposits = graphql(
  `
    query DashboardReviewDeposits($status: BankMessageStatus!, $sandbox: Boolean!) {
      bankMessages(status: $status, first: 10, sandbox: $sandbox) {
        pageInfo {
          hasNextPage
        }
        edges {
          node {
            ...BankMessageCard
            senderVouchable
            candidates {
              reason
              payment {
                id
                orderId
                status
                amountFinal
                amountRequested
                createdAt
              }
            }
          }
        }
      }
    }
  `,
  [BankMessageFragment],
);

const Vouch = graphql(`
  mutation DashboardVouchSender($bankMessageId: ID!) {
    vouchSmsSender(bankMessageId: $bankMessageId) {
      id
      smsSender
    }
  }
`);

/**
 * "This is my bank's line": a deposit held only because its sender is unknown, whose text reads as
 * the bank of the card it names. After a second look naming the sender, the sender becomes that
 * card's SMS line (audited); attaching the deposit stays a decision of its own.
 */
function VouchSender({ message }: { message: Deposit }) {
  const [asking, setAsking] = useState(false);
  const [state, vouch] = useMutation(Vouch);
  if (state.data && !state.error) {
    return (
      <p className="ok" role="status" data-vouched="">
        خط <Data>{message.sender}</Data> خط پیامک بانک این کارت شد؛ پیامک‌های بعدی آن پذیرفته می‌شوند. این واریز هنوز منتظر تصمیم شماست.
      </p>
    );
  }
  return (
    <div className="vouch">
      {asking ? (
        <div className="confirm" role="alertdialog" aria-label="تأیید خط بانک" data-confirm-step="">
          <p>
            فرستندهٔ <Data>{message.sender}</Data> را خط پیامک بانک کارت این واریز ثبت کنیم؟ فقط اگر مطمئنید این پیامک را خود بانک فرستاده است.
          </p>
          <div className="buttons">
            <button type="button" disabled={state.fetching} onClick={() => void vouch({ bankMessageId: message.id })}>
              بله، خط بانک من است
            </button>
            <button type="button" className="secondary" onClick={() => setAsking(false)}>
              انصراف
            </button>
          </div>
        </div>
      ) : (
        <button type="button" className="secondary small" onClick={() => setAsking(true)}>
          این خط بانک من است
        </button>
      )}
      <ErrorNote error={state.error} />
    </div>
  );
}

const FlaggedPayments = graphql(
  `
    query DashboardReviewPayments($sandbox: Boolean!) {
      payments(reviewRequired: true, first: 10, sandbox: $sandbox) {
        totalCount
        edges {
          node {
            ...PaymentRow
            candidateMessages {
              reason
              bankMessage {
                id
                status
                amount
                body
                sender
                bankTime
                receivedAt
                reviewReason
                simulated
              }
            }
          }
        }
      }
    }
  `,
  [PaymentRowFragment],
);

type CandidateData = { id: string; orderId: string | null; status: string; amountFinal: string; amountRequested: string; createdAt: string };
type Deposit = BankMessageData & { senderVouchable: boolean; candidates: { reason: string; payment: CandidateData }[] };
type FlaggedPayment = PaymentRowData & { candidateMessages: { reason: string; bankMessage: EvidenceData }[] };
function CandidatePayment({ messageId, amount, reason, payment }: { messageId: string; amount: string | null; reason: string; payment: CandidateData }) {
  return (
    <li className="candidate" data-candidate-payment-id={payment.id}>
      <div className="row-main">
        <Link to={`${BASE}/payments/${payment.id}`}>
          <OrderTitle payment={payment} />
        </Link>
        <PaymentStatusBadge status={payment.status} />
        <span className="tag">{label(CANDIDATE_REASON, reason)}</span>
      </div>
      <div className="row-meta">
        <span>
          مبلغ نهایی <Amount rials={payment.amountFinal} />
        </span>
        <DateTime iso={payment.createdAt} />
      </div>
      <AttachForm messageId={messageId} paymentId={payment.id} label="وصل کردن به این پرداخت" amount={amount} order={payment} />
    </li>
  );
}

function DepositItem({ message }: { message: Deposit }) {
  const { isOwner } = useRole();
  return (
    <li className="row review-item" data-bank-message-id={message.id} data-status={message.status}>
      {message.reviewReason && <p className="row-flag">{label(REVIEW_REASON, message.reviewReason)}</p>}
      <MessageEvidence message={message} />
      {message.senderVouchable && isOwner && <VouchSender message={message} />}
      <h3>پرداخت‌های احتمالی</h3>
      {message.candidates.length === 0 ? (
        <Empty>پرداختی با این واریز جور نیست.</Empty>
      ) : (
        <ul className="candidates">
          {message.candidates.map((c) => (
            <CandidatePayment key={c.payment.id} messageId={message.id} amount={message.amount} reason={c.reason} payment={c.payment} />
          ))}
        </ul>
      )}
      <details>
        <summary>بازپرداخت این واریز به واریزکننده</summary>
        <RefundForm messageId={message.id} amount={message.amount} />
      </details>
      <details>
        <summary>کنار گذاشتن</summary>
        <DismissForm messageId={message.id} />
      </details>
    </li>
  );
}

function PaymentItem({ payment }: { payment: FlaggedPayment }) {
  return (
    <li className="row review-item" data-payment-id={payment.id} data-status={payment.status}>
      <div className="row-main">
        <Link to={`${BASE}/payments/${payment.id}`} className="row-title">
          <OrderTitle payment={payment} />
        </Link>
        <PaymentStatusBadge status={payment.status} />
      </div>
      <p className="row-flag">{label(REVIEW_REASON, payment.reviewReason)}</p>
      <div className="row-meta">
        <span>
          مبلغ نهایی <Amount rials={payment.amountFinal} />
        </span>
        <DateTime iso={payment.createdAt} />
      </div>
      <h3>واریزهای احتمالی</h3>
      {payment.candidateMessages.length === 0 ? (
        <Empty>واریز بی‌صاحبی با این پرداخت جور نیست.</Empty>
      ) : (
        <ul className="candidates">
          {payment.candidateMessages.map((c) => (
            <li key={c.bankMessage.id} className="candidate" data-candidate-bank-message-id={c.bankMessage.id}>
              <span className="tag">{label(CANDIDATE_REASON, c.reason)}</span>
              <MessageEvidence message={c.bankMessage} />
              <AttachForm messageId={c.bankMessage.id} paymentId={payment.id} label="وصل کردن این واریز" amount={c.bankMessage.amount} order={payment} />
            </li>
          ))}
        </ul>
      )}
      {(payment.status === 'pending' || payment.status === 'expired') && (
        <details>
          <summary>تأیید دستی بدون پیامک</summary>
          <ConfirmForm paymentId={payment.id} expired={payment.status === 'expired'} amount={payment.amountFinal} order={payment} />
        </details>
      )}
      {payment.status === 'pending' && (
        <details>
          <summary>رد پرداخت</summary>
          <RejectForm paymentId={payment.id} />
        </details>
      )}
    </li>
  );
}

function DepositQueue({ status, title }: { status: 'needs_review' | 'unmatched'; title: string }) {
  const sandbox = useMode() === 'test';
  const [result, refetch] = useQuery({ query: Deposits, variables: { status, sandbox } });
  usePaymentEvents(() => refetch({ requestPolicy: 'network-only' }));
  const data = result.data?.bankMessages;
  return (
    <Section title={data ? `${title} (${faNumber(data.edges.length)}${data.pageInfo.hasNextPage ? '+' : ''})` : title}>
      {!data ? (
        result.error ? <ErrorNote error={result.error} /> : <Loading />
      ) : data.edges.length === 0 ? (
        <Empty>واریزی منتظر تصمیم نیست.</Empty>
      ) : (
        <ul className="rows" id={`review-${status}`}>
          {data.edges.map(({ node }) => (
            <DepositItem key={node.id} message={node} />
          ))}
        </ul>
      )}
      {data?.pageInfo.hasNextPage && <p className="muted">با تصمیم دربارهٔ این‌ها، بقیه نمایش داده می‌شوند.</p>}
    </Section>
  );
}

function PaymentQueue() {
  const sandbox = useMode() === 'test';
  const [result, refetch] = useQuery({ query: FlaggedPayments, variables: { sandbox } });
  usePaymentEvents(() => refetch({ requestPolicy: 'network-only' }));
  const data = result.data?.payments;
  return (
    <Section title={data ? `پرداخت‌های منتظر تصمیم (${faNumber(data.totalCount)})` : 'پرداخت‌های منتظر تصمیم'}>
      {!data ? (
        result.error ? <ErrorNote error={result.error} /> : <Loading />
      ) : data.edges.length === 0 ? (
        <Empty>پرداختی منتظر تصمیم نیست.</Empty>
      ) : (
        <ul className="rows" id="review-payments">
          {data.edges.map(({ node }) => (
            <PaymentItem key={node.id} payment={node} />
          ))}
        </ul>
      )}
    </Section>
  );
}

export function ReviewPage() {
  useTitle('صف بررسی');
  return (
    <>
      <PageTitle>صف بررسی</PageTitle>
      <ReadOnlyNote />
      <DepositQueue status="needs_review" title="واریزهای نیازمند بررسی" />
      <BalanceGapQueue />
      <DepositQueue status="unmatched" title="واریزهای بدون پرداخت" />
      <PaymentQueue />
    </>
  );
}
