import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql, type ResultOf } from '../graphql.js';
import { faNumber, groupCard, faDigits } from '../format.js';
import { OwnerOnlyNote, useRole } from '../role.js';
import { useTitle } from '../router.js';
import { Amount } from '../unit.js';
import { Empty, ErrorNote, Facts, Loading, PageTitle, Section } from '../ui/common.js';

const Cards = graphql(`
  query DashboardCards {
    viewer {
      merchant {
        id
        devices {
          id
          name
          revoked
          online
        }
        projects {
          id
          name
          sandbox
          cards {
            id
            bankName
            cardNumber
            holderName
            active
            deviceId
            dailyAmountCap
            dailyCountCap
            monthlyAmountCap
            monthlyCountCap
            lastUsedAt
          }
        }
      }
    }
  }
`);

const UpdateCard = graphql(`
  mutation DashboardUpdateCard($id: ID!, $input: UpdateCardInput!) {
    updateCard(id: $id, input: $input) {
      id
      active
      deviceId
    }
  }
`);

type Merchant = NonNullable<NonNullable<ResultOf<typeof Cards>['viewer']>['merchant']>;
type Card = Merchant['projects'][number]['cards'][number];

function Cap({ amount, count }: { amount: string | null; count: number | null }) {
  if (amount == null && count == null) return <span>بدون سقف</span>;
  return (
    <span>
      {amount != null && <Amount rials={amount} />}
      {amount != null && count != null && ' · '}
      {count != null && `${faNumber(count)} پرداخت`}
    </span>
  );
}

function CardItem({ card, devices }: { card: Card; devices: Merchant['devices'] }) {
  const [state, update] = useMutation(UpdateCard);
  const [target, setTarget] = useState('');
  const { isOwner } = useRole();
  const device = devices.find((d) => d.id === card.deviceId);
  const others = devices.filter((d) => !d.revoked && d.id !== card.deviceId);
  const selectId = `move-${card.id}`;
  return (
    <li className="row" data-card-id={card.id} data-active={String(card.active)}>
      <div className="row-main">
        <strong dir="ltr">{faDigits(groupCard(card.cardNumber))}</strong>
        <span className={`status ${card.active ? 'status-confirmed' : 'status-expired'}`}>{card.active ? 'فعال' : 'غیرفعال'}</span>
      </div>
      <Facts
        items={[
          ['بانک', card.bankName],
          ['دارنده', card.holderName],
          ['گوشی', device ? `${device.name}${device.online ? '' : ' (آفلاین)'}` : '—'],
          ['سقف روزانه', <Cap amount={card.dailyAmountCap} count={card.dailyCountCap} />],
          ['سقف ماهانه', <Cap amount={card.monthlyAmountCap} count={card.monthlyCountCap} />],
        ]}
      />
      {isOwner && (
      <div className="inline-form">
        <label htmlFor={selectId}>انتقال به گوشی دیگر</label>
        <select id={selectId} value={target} onChange={(e) => setTarget(e.target.value)}>
          <option value="">انتخاب گوشی</option>
          {others.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </select>
        <button type="button" className="secondary small" disabled={!target || state.fetching} onClick={() => void update({ id: card.id, input: { deviceId: target } })}>
          انتقال
        </button>
        <button type="button" className="secondary small" disabled={state.fetching} onClick={() => void update({ id: card.id, input: { active: !card.active } })}>
          {card.active ? 'غیرفعال کردن' : 'فعال کردن'}
        </button>
      </div>
      )}
      <ErrorNote error={state.error} />
    </li>
  );
}

export function CardsPage() {
  useTitle('کارت‌ها');
  const [result] = useQuery({ query: Cards });
  const merchant = result.data?.viewer?.merchant;
  if (!merchant) return result.error ? <ErrorNote error={result.error} /> : <Loading />;
  return (
    <>
      <PageTitle>کارت‌ها</PageTitle>
      <OwnerOnlyNote />
      {merchant.projects.map((project) => (
        <Section key={project.id} title={`${project.name}${project.sandbox ? ' (آزمایشی)' : ''}`}>
          {project.cards.length === 0 ? (
            <Empty>این پروژه کارتی ندارد.</Empty>
          ) : (
            <ul className="rows">
              {project.cards.map((card) => (
                <CardItem key={card.id} card={card} devices={merchant.devices} />
              ))}
            </ul>
          )}
        </Section>
      ))}
    </>
  );
}
