import type { BankMessageData } from '../fragments.js';
import type { ReactNode } from 'react';
import { Data, Name } from './data.js';
import { bankLabel, depositReason } from '../labels.js';
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
      <blockquote className="sms" dir="auto" translate="no">
        {message.body}
      </blockquote>
      <Facts
        items={[
          ['فرستنده', <Data>{message.sender}</Data>],
          ['بانک', bankLabel(message.bankCode)],
          ['زمان بانک', <DateTime iso={message.bankTime} />],
          ['دریافت گوشی', <DateTime iso={message.receivedAt} />],
          ['حساب', message.accountHint ? <Data>{message.accountHint}</Data> : '—'],
          ['پیگیری', message.reference ? <Data>{message.reference}</Data> : '—'],
          ['بررسی شواهد', depositReason(message.status, message.reviewReason)],
          ...(message.decisionNote ? ([['یادداشت تصمیم', <Name>{message.decisionNote}</Name>]] as [string, ReactNode][]) : []),
        ]}
      />
    </div>
  );
}
