import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql, type EnumOf, type ResultOf } from '../graphql.js';
import { formatDateTime } from '../format.js';
import { useTitle } from '../router.js';
import { CopyButton, DateTime, Empty, ErrorNote, Loading, PageTitle, Section } from '../ui/common.js';
import { QrCode } from '../ui/qr.js';

// Chat notifications (docs/notifications.md): the signed-in user links Telegram and Bale chats,
// chooses what each is told, and unlinks them.

const MyChats = graphql(`
  query DashboardChatLinks {
    chatPlatforms
    viewer {
      user {
        id
        chatLinks {
          id
          platform
          chatTitle
          events
          createdAt
        }
      }
    }
  }
`);

const CreateCode = graphql(`
  mutation DashboardCreateChatLinkCode($platform: ChatPlatform!) {
    createChatLinkCode(platform: $platform) {
      code
      deepLink
      expiresAt
    }
  }
`);

const UpdateLink = graphql(`
  mutation DashboardUpdateChatLink($id: ID!, $events: [String!]!) {
    updateChatLink(id: $id, input: { events: $events }) {
      id
      events
    }
  }
`);

const RemoveLink = graphql(`
  mutation DashboardRemoveChatLink($id: ID!) {
    removeChatLink(id: $id) {
      id
    }
  }
`);

type Platform = EnumOf<'ChatPlatform'>;
type ChatLink = NonNullable<NonNullable<ResultOf<typeof MyChats>['viewer']>['user']>['chatLinks'][number];

const PLATFORM: Record<Platform, string> = { TELEGRAM: 'تلگرام', BALE: 'بله' };

/** What a chat can be told, in the order the server lists them (CHAT_NOTIFICATIONS). */
const EVENTS: [string, string][] = [
  ['payment.confirmed', 'پرداخت تأیید شد'],
  ['payment.review_required', 'پرداختی نیاز به بررسی دارد (با دکمهٔ تصمیم)'],
  ['bank_message.needs_review', 'واریزی منتظر تصمیم است (با دکمهٔ وصل به سفارش)'],
  ['card.balance_gap', 'موجودی کارت با پیامک‌ها نمی‌خواند (پیامک گم‌شده)'],
  ['device.offline', 'گوشی قطع شد'],
  ['device.silent', 'گوشی پیامک بانک نمی‌فرستد'],
  ['device.low_battery', 'باتری گوشی کم است'],
  ['daily.summary', 'خلاصهٔ روز، ساعت ۲۳ به وقت تهران'],
];

function LinkCode({ platform, onLinked }: { platform: Platform; onLinked: () => void }) {
  const [state, create] = useMutation(CreateCode);
  const code = state.data?.createChatLinkCode;
  // While a code is shown, the list is read again every few seconds: the chat appears once linked.
  useEffect(() => {
    if (!code) return;
    const timer = window.setInterval(onLinked, 4000);
    const stop = window.setTimeout(() => window.clearInterval(timer), new Date(code.expiresAt).getTime() - Date.now());
    return () => {
      window.clearInterval(timer);
      window.clearTimeout(stop);
    };
  }, [code, onLinked]);
  return (
    <div className="chat-code" data-platform={platform}>
      <p className="buttons">
        <button type="button" disabled={state.fetching} onClick={() => void create({ platform })}>
          ساخت کد برای {PLATFORM[platform]}
        </button>
      </p>
      <ErrorNote error={state.error} />
      {code && (
        <div role="status">
          <p>
            این پیوند را در گوشی باز کنید (یا کد QR را با دوربین گوشی بخوانید) و در ربات دکمهٔ «شروع» را بزنید. برای یک گروه: ربات را به گروه بیفزایید و در
            گروه بنویسید:
          </p>
          <p>
            <code dir="ltr" className="secret" data-chat-code={code.code}>
              /start {code.code}
            </code>{' '}
            <CopyButton text={`/start ${code.code}`} />
          </p>
          <p>
            <a href={code.deepLink} target="_blank" rel="noreferrer" dir="ltr">
              {code.deepLink}
            </a>
          </p>
          <QrCode value={code.deepLink} alt={`کد QR پیوند ربات ${PLATFORM[platform]}`} id={`chat-qr-${platform}`} />
          <p className="muted">
            این کد یک‌بار به کار می‌رود و تا {formatDateTime(code.expiresAt)} (ده دقیقه) معتبر است.
          </p>
        </div>
      )}
    </div>
  );
}

function LinkItem({ link }: { link: ChatLink }) {
  const [updated, update] = useMutation(UpdateLink);
  const [removed, remove] = useMutation(RemoveLink);
  const [sure, setSure] = useState(false);
  const [saved, setSaved] = useState(false);
  const save = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const events = EVENTS.map(([code]) => code).filter((code) => form.get(code) === 'on');
    setSaved(false);
    const result = await update({ id: link.id, events });
    if (!result.error) setSaved(true);
  };
  return (
    <li className="row" data-chat-link-id={link.id} data-platform={link.platform}>
      <div className="row-main">
        <strong>{link.chatTitle}</strong>
        <span className="tag">{PLATFORM[link.platform]}</span>
      </div>
      <p className="muted">
        وصل شده <DateTime iso={link.createdAt} />
      </p>
      <form onSubmit={save} aria-label={`اعلان‌های ${link.chatTitle}`}>
        <fieldset>
          <legend>چه چیزهایی به این گفتگو فرستاده شود</legend>
          {EVENTS.map(([code, text]) => (
            <div className="check" key={code}>
              <input type="checkbox" id={`${link.id}-${code}`} name={code} defaultChecked={link.events.includes(code)} />
              <label htmlFor={`${link.id}-${code}`}>{text}</label>
            </div>
          ))}
        </fieldset>
        <p className="buttons">
          <button type="submit" className="small" disabled={updated.fetching}>
            ذخیره
          </button>
          {saved && <span role="status">ذخیره شد.</span>}
          {sure ? (
            <>
              <button type="button" className="danger small" disabled={removed.fetching} onClick={() => void remove({ id: link.id }, { additionalTypenames: ['ChatLink', 'User'] })}>
                بله، قطع شود
              </button>
              <button type="button" className="secondary small" onClick={() => setSure(false)}>
                انصراف
              </button>
            </>
          ) : (
            <button type="button" className="secondary small" onClick={() => setSure(true)}>
              قطع اتصال
            </button>
          )}
        </p>
      </form>
      <ErrorNote error={updated.error ?? removed.error} />
    </li>
  );
}

export function ChatPage() {
  useTitle('اعلان‌های تلگرام و بله');
  const [result, reexecute] = useQuery({ query: MyChats });
  const refresh = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  const links = result.data?.viewer?.user?.chatLinks ?? [];
  const platforms = result.data?.chatPlatforms ?? [];
  return (
    <>
      <PageTitle>اعلان‌های تلگرام و بله</PageTitle>
      <Section title="وصل کردن یک گفتگو">
        <p>
          پرداخت‌های تأییدشده، واریزهای منتظر تصمیم، پیامک‌های گم‌شده و حال گوشی‌ها را در تلگرام یا بله بگیرید و از همان‌جا تصمیم بگیرید. دکمه‌ها با نقش شما
          کار می‌کنند: بیننده فقط می‌بیند.
        </p>
        {result.data && platforms.length === 0 && <Empty>هنوز رباتی روی این درگاه راه نیفتاده است؛ از پشتیبانی درگاه بخواهید ربات تلگرام یا بله را راه بیندازد.</Empty>}
        {platforms.map((platform) => (
          <LinkCode key={platform} platform={platform} onLinked={refresh} />
        ))}
      </Section>
      <Section
        title="گفتگوهای وصل"
        actions={
          <button type="button" className="secondary small" onClick={refresh}>
            به‌روزرسانی
          </button>
        }
      >
        {result.fetching && !result.data ? (
          <Loading />
        ) : links.length === 0 ? (
          <Empty>هنوز گفتگویی وصل نشده است.</Empty>
        ) : (
          <ul className="rows">
            {links.map((link) => (
              <LinkItem key={link.id} link={link} />
            ))}
          </ul>
        )}
        <ErrorNote error={result.error} />
      </Section>
    </>
  );
}
