import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql, type ResultOf } from '../graphql.js';
import { faNumber, groupCard, faDigits } from '../format.js';
import { OwnerOnlyNote, useRole } from '../role.js';
import { useTitle } from '../router.js';
import { AmountOf } from '../unit.js';
import { Empty, ErrorNote, Facts, Loading, PageTitle, Section } from '../ui/common.js';
import { projectTitles } from '../projects.js';

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
            usedToday {
              amount
              count
            }
            usedThisMonth {
              amount
              count
            }
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

type Usage = Card['usedToday'];

/**
 * A period's caps against what counts toward them now (the API's usedToday / usedThisMonth, the
 * create function's own count): «۱۲۰٬۰۰۰ از ۵۰۰٬۰۰۰ تومان امروز، ۳ از ۱۰ پرداخت» (a comma, not a middle dot: ۰ is a dot).
 */
function Cap({ amount, count, used, period, kind }: { amount: string | null; count: number | null; used: Usage; period: string; kind: 'day' | 'month' }) {
  const full = (amount != null && BigInt(used.amount) >= BigInt(amount)) || (count != null && used.count >= count);
  return (
    <span className={`cap-usage${full ? ' cap-full' : ''}`} data-cap={kind} data-used-amount={used.amount} data-used-count={used.count}>
      <AmountOf rials={used.amount} of={amount} />
      {` ${period}`}
      {'، '}
      {count != null ? `${faNumber(used.count)} از ${faNumber(count)} پرداخت` : `${faNumber(used.count)} پرداخت`}
      {amount == null && count == null && ' (بدون سقف)'}
      {full && ' (پر شده)'}
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
          ['سقف روزانه', <Cap amount={card.dailyAmountCap} count={card.dailyCountCap} used={card.usedToday} period="امروز" kind="day" />],
          ['سقف ماهانه', <Cap amount={card.monthlyAmountCap} count={card.monthlyCountCap} used={card.usedThisMonth} period="این ماه" kind="month" />],
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
        <Section key={project.id} title={projectTitles(merchant.projects).get(project.id)!}>
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
