import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql, type ResultOf } from '../graphql.js';
import { faNumber, groupCard, faDigits, formatDateTime, parseAmount } from '../format.js';
import { OwnerOnlyNote, useRole } from '../role.js';
import { BASE, Link, useMode, useTitle } from '../router.js';
import { Amount, AmountOf, useUnit } from '../unit.js';
import { Empty, ErrorNote, Facts, Loading, PageTitle, Section } from '../ui/common.js';
import { CardFields, readCard } from '../ui/card-form.js';
import { Data, Name, ProjectTitle } from '../ui/data.js';
import { CardOpenGaps } from '../ui/balance-gaps.js';

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
            bankCode
            bankName
            cardNumber
            holderName
            accountNumber
            sheba
            smsSender
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
            lastKnownBalance
            lastKnownBalanceAt
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
      holderName
      accountNumber
      sheba
      smsSender
      dailyAmountCap
      dailyCountCap
      monthlyAmountCap
      monthlyCountCap
      lastKnownBalance
      lastKnownBalanceAt
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

/**
 * The balance chain's reference (docs/security.md, "Bank SMS"): the balance the next bank SMS must
 * follow, as of when; before the first SMS and without an opening balance there is none.
 */
function KnownBalance({ card }: { card: Card }) {
  if (card.lastKnownBalance == null) return <span data-known-balance="">هنوز ثبت نشده</span>;
  return (
    <span data-known-balance={card.lastKnownBalance}>
      <Amount rials={card.lastKnownBalance} />
      {card.lastKnownBalanceAt && ` (${formatDateTime(card.lastKnownBalanceAt)})`}
    </span>
  );
}

/**
 * The opening balance (updateCard `openingBalance`): the balance the bank's app shows now becomes
 * the chain's reference, so a forged first SMS cannot become it (trust on first use).
 */
function OpeningBalanceForm({ card }: { card: Card }) {
  const { unit } = useUnit();
  const [state, update] = useMutation(UpdateCard);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const inputId = `balance-${card.id}`;
  const helpId = `balance-help-${card.id}`;
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const text = String(new FormData(e.currentTarget).get('balance') ?? '').trim();
    const rials = parseAmount(text, unit);
    if (rials === null) return setProblem('موجودی را با رقم بنویسید.');
    setProblem(null);
    setSaved(false);
    const result = await update({ id: card.id, input: { openingBalance: rials } });
    setSaved(!result.error);
  };
  return (
    <form className="inline-form" onSubmit={(e) => void submit(e)} aria-label={`موجودی فعلی کارت ${faDigits(card.cardNumber.slice(-4))}`}>
      <label htmlFor={inputId}>موجودی فعلی به {unit === 'toman' ? 'تومان' : 'ریال'}</label>
      <input id={inputId} name="balance" inputMode="numeric" dir="ltr" required aria-describedby={helpId} />
      <button type="submit" className="secondary small" disabled={state.fetching}>
        ثبت موجودی
      </button>
      <p className="muted" id={helpId}>
        موجودی فعلی کارت را همان‌طور که اپ بانک نشان می‌دهد وارد کنید؛ با آن، پیامک جعلی اول نمی‌تواند مرجع موجودی شود.
      </p>
      <ErrorNote text={problem} />
      {!problem && <ErrorNote error={state.error} />}
      {saved && !state.fetching && (
        <p className="ok" role="status">
          موجودی ثبت شد.
        </p>
      )}
    </form>
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
        <strong>
          <Data>{groupCard(card.cardNumber)}</Data>
        </strong>
        <span className={`status ${card.active ? 'status-confirmed' : 'status-expired'}`}>{card.active ? 'فعال' : 'غیرفعال'}</span>
      </div>
      <Facts
        items={[
          ['بانک', card.bankName],
          ['دارنده', <Name>{card.holderName}</Name>],
          ['حساب', card.accountNumber ? <Data>{card.accountNumber}</Data> : '—'],
          ['خط پیامک بانک', card.smsSender ? <Data>{card.smsSender}</Data> : 'خط‌های شناختهٔ بانک'],
          [
            'گوشی',
            device ? (
              <>
                <Name>{device.name}</Name>
                {device.online ? '' : ' (آفلاین)'}
              </>
            ) : (
              '—'
            ),
          ],
          ['سقف روزانه', <Cap amount={card.dailyAmountCap} count={card.dailyCountCap} used={card.usedToday} period="امروز" kind="day" />],
          ['سقف ماهانه', <Cap amount={card.monthlyAmountCap} count={card.monthlyCountCap} used={card.usedThisMonth} period="این ماه" kind="month" />],
          ['آخرین موجودی شناخته', <KnownBalance card={card} />],
        ]}
      />
      <CardOpenGaps cardId={card.id} />
      {isOwner && (
      <div className="inline-form">
        <label htmlFor={selectId}>انتقال به گوشی دیگر</label>
        <select id={selectId} value={target} onChange={(e) => setTarget(e.target.value)}>
          <option value="">انتخاب گوشی</option>
          {others.map((d) => (
            <option key={d.id} value={d.id} translate="no">
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
      {isOwner && <OpeningBalanceForm card={card} />}
      {isOwner && (
        <details>
          <summary>ویرایش کارت</summary>
          <EditCardForm card={card} devices={devices} />
        </details>
      )}
    </li>
  );
}

/** Every field of the card but its number and bank (updateCard; a field left empty removes it). */
function EditCardForm({ card, devices }: { card: Card; devices: Merchant['devices'] }) {
  const { unit } = useUnit();
  const [state, update] = useMutation(UpdateCard);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const { input, problems: found } = readCard(new FormData(e.currentTarget), unit, { creating: false });
    setProblems(found);
    if (Object.keys(found).length) return;
    // The number and the bank are the card itself: a different card is added, not edited.
    delete input.cardNumber;
    delete input.bankCode;
    void update({ id: card.id, input });
  };
  return (
    <form className="action" onSubmit={submit} noValidate aria-label={`ویرایش کارت ${faDigits(card.cardNumber.slice(-4))}`}>
      <CardFields initial={card} devices={devices} unit={unit} problems={problems} error={state.error} creating={false} />
      <ErrorNote error={state.error} />
      {state.data && !state.fetching && !state.error && (
        <p className="ok" role="status">
          کارت ذخیره شد.
        </p>
      )}
      <button type="submit" disabled={state.fetching}>
        ذخیرهٔ کارت
      </button>
    </form>
  );
}

export function CardsPage() {
  useTitle('کارت‌ها');
  const [result] = useQuery({ query: Cards });
  const sandbox = useMode() === 'test';
  const { isOwner } = useRole();
  const merchant = result.data?.viewer?.merchant;
  if (!merchant) return result.error ? <ErrorNote error={result.error} /> : <Loading />;
  // The side shown only: live projects' cards, or the sandbox ones under /dashboard/test.
  const projects = merchant.projects.filter((p) => p.sandbox === sandbox);
  return (
    <>
      <PageTitle>کارت‌ها</PageTitle>
      <OwnerOnlyNote />
      {isOwner && (
        <p className="buttons page-actions">
          <Link to={`${BASE}/cards/new`} className="button" id="add-card">
            افزودن کارت
          </Link>
        </p>
      )}
      {projects.length === 0 && <Empty>پروژه‌ای در این بخش نیست.</Empty>}
      {projects.map((project) => (
        <Section key={project.id} title={<ProjectTitle project={project} projects={projects} />}>
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
