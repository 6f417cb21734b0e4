import type { BankMessageData } from '../fragments.js';
import { faDigits } from '../format.js';
import { REVIEW_REASON, label } from '../labels.js';
import { Amount } from '../unit.js';
import { DateTime, Facts, MessageStatusBadge } from './common.js';

/** What a deposit card needs; the rest of the message's fields show when the query asked for them. */
export type EvidenceData = Pick<BankMessageData, 'id' | 'status' | 'amount' | 'body' | 'sender' | 'bankTime' | 'receivedAt' | 'reviewReason' | 'simulated'> &
  Partial<BankMessageData>;

/** The evidence of a deposit: the SMS as the phone received it and what the engine read in it. */
export function MessageEvidence({ message }: { message: EvidenceData }) {
  return (
    <div className="evidence">
      <div className="row-main">
        <strong>
          <Amount rials={message.amount} />
        </strong>
        <MessageStatusBadge status={message.status} />
        {message.simulated && <span className="tag">شبیه‌سازی</span>}
      </div>
      <blockquote className="sms" dir="auto">
        {message.body}
      </blockquote>
      <Facts
        items={[
          ['فرستنده', <span dir="ltr">{message.sender}</span>],
          ['بانک', message.bankCode ?? '—'],
          ['زمان بانک', <DateTime iso={message.bankTime} />],
          ['دریافت گوشی', <DateTime iso={message.receivedAt} />],
          ['حساب', message.accountHint ? <span dir="ltr">{faDigits(message.accountHint)}</span> : '—'],
          ['پیگیری', message.reference ? <span dir="ltr">{message.reference}</span> : '—'],
          ['بررسی شواهد', message.reviewReason ? label(REVIEW_REASON, message.reviewReason) : <bdi>{message.statusReason ?? '—'}</bdi>],
          ...(message.decisionNote ? ([['یادداشت تصمیم', message.decisionNote]] as [string, string][]) : []),
        ]}
      />
    </div>
  );
}
