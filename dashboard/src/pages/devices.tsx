import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql, type ResultOf } from '../graphql.js';
import { faNumber, formatAgo } from '../format.js';
import { OwnerOnlyNote, useRole } from '../role.js';
import { BASE, Link, useTitle } from '../router.js';
import { Name } from '../ui/data.js';
import { Empty, ErrorNote, Facts, Loading, PageTitle, Section, ShownOnce } from '../ui/common.js';
import { HealthBadge, HealthFacts, HealthTimeline } from '../ui/device-health.js';

const Devices = graphql(`
  query DashboardDevices {
    viewer {
      merchant {
        id
        devices {
          id
          name
          online
          revoked
          lastSeenAt
          lastMessageAt
          lastHeartbeatAt
          health
          battery
          charging
          network
          appVersion
          tokenPrefix
          hookSecretPrefix
          createdAt
        }
        projects {
          id
          cards {
            id
            deviceId
          }
        }
      }
    }
  }
`);

const IssueHook = graphql(`
  mutation DashboardIssueHook($id: ID!) {
    issueDeviceHook(id: $id) {
      hookUrl
      device {
        id
        hookSecretPrefix
      }
    }
  }
`);

const RevokeDevice = graphql(`
  mutation DashboardRevokeDevice($id: ID!) {
    revokeDevice(id: $id) {
      id
      revoked
      online
    }
  }
`);

const RevokeHook = graphql(`
  mutation DashboardRevokeHook($id: ID!) {
    revokeDeviceHook(id: $id) {
      id
      hookSecretPrefix
    }
  }
`);

type Device = NonNullable<NonNullable<ResultOf<typeof Devices>['viewer']>['merchant']>['devices'][number];

function DeviceItem({ device, cards }: { device: Device; cards: number }) {
  const [issued, issue] = useMutation(IssueHook);
  const [revoked, revoke] = useMutation(RevokeHook);
  const { isOwner } = useRole();
  const state = device.revoked ? 'revoked' : device.online ? 'online' : 'offline';
  return (
    <li className="row" data-device-id={device.id} data-online={String(device.online)}>
      <div className="row-main">
        <strong>
          <Name>{device.name}</Name>
        </strong>
        <span className={`status status-device-${state}`}>{device.revoked ? 'باطل‌شده' : device.online ? 'آنلاین' : 'آفلاین'}</span>
        {!device.revoked && <HealthBadge health={device.health} />}
      </div>
      {!device.revoked && <HealthFacts device={device} />}
      <Facts
        items={[
          ['آخرین دیده‌شدن', <span>{formatAgo(device.lastSeenAt)}</span>],
          ['کارت‌ها', faNumber(cards)],
          ['توکن', <code dir="ltr" translate="no">{device.tokenPrefix}…</code>],
          ['نشانی هوک فرستنده', device.hookSecretPrefix ? <code dir="ltr" translate="no">…/v1/device/hooks/{device.hookSecretPrefix}…</code> : 'ندارد'],
        ]}
      />
      {!device.revoked && <HealthTimeline deviceId={device.id} />}
      {issued.data && <ShownOnce title="نشانی هوک تازه" value={issued.data.issueDeviceHook.hookUrl} />}
      <ErrorNote error={issued.error ?? revoked.error} />
      {!device.revoked && isOwner && <RevokeDeviceButton id={device.id} cards={cards} />}
      {!device.revoked && isOwner && (
        <div className="buttons">
          <button type="button" className="secondary small" disabled={issued.fetching} onClick={() => void issue({ id: device.id })}>
            {device.hookSecretPrefix ? 'نشانی هوک تازه (قبلی باطل می‌شود)' : 'ساختن نشانی هوک'}
          </button>
          {device.hookSecretPrefix && (
            <button type="button" className="secondary small" disabled={revoked.fetching} onClick={() => void revoke({ id: device.id })}>
              باطل کردن نشانی هوک
            </button>
          )}
        </div>
      )}
    </li>
  );
}

/** Revoking a phone ends its token and hook URL for good: asked once more, naming its cards. */
function RevokeDeviceButton({ id, cards }: { id: string; cards: number }) {
  const [asking, setAsking] = useState(false);
  const [state, revoke] = useMutation(RevokeDevice);
  return (
    <div className="buttons">
      {!asking ? (
        <button type="button" className="secondary small" onClick={() => setAsking(true)}>
          باطل کردن گوشی
        </button>
      ) : (
        <div className="confirm" role="alertdialog" aria-label="باطل کردن گوشی">
          <p>
            این گوشی برای همیشه باطل می‌شود{cards > 0 ? ` و ${faNumber(cards)} کارت آن تا انتقال به گوشی دیگر پرداخت تازه نمی‌گیرند` : ''}. مطمئنید؟
          </p>
          <button type="button" className="danger small" disabled={state.fetching} onClick={() => void revoke({ id })}>
            بله، باطل شود
          </button>
          <button type="button" className="secondary small" onClick={() => setAsking(false)}>
            انصراف
          </button>
        </div>
      )}
      <ErrorNote error={state.error} />
    </div>
  );
}

export function DevicesPage() {
  useTitle('گوشی‌ها');
  const [result] = useQuery({ query: Devices });
  const { isOwner } = useRole();
  const merchant = result.data?.viewer?.merchant;
  if (!merchant) return result.error ? <ErrorNote error={result.error} /> : result.data ? <ErrorNote text="این بخش فقط برای حساب پذیرنده است." /> : <Loading />;
  const cards = merchant.projects.flatMap((p) => p.cards);
  return (
    <>
      <PageTitle>گوشی‌ها</PageTitle>
      <OwnerOnlyNote />
      {isOwner && (
        <p className="buttons page-actions">
          <Link to={`${BASE}/devices/new`} className="button" id="add-device">
            افزودن گوشی
          </Link>
        </p>
      )}
      <Section title="گوشی‌های فرستندهٔ پیامک">
        <p className="muted">گوشی‌ای که چند دقیقه تماسی نگرفته آفلاین شمرده می‌شود و کارت‌هایش پرداخت تازه نمی‌گیرند.</p>
        {merchant.devices.length === 0 ? (
          <Empty>هنوز گوشی‌ای ثبت نشده است.</Empty>
        ) : (
          <ul className="rows">
            {merchant.devices.map((d) => (
              <DeviceItem key={d.id} device={d} cards={cards.filter((c) => c.deviceId === d.id).length} />
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}
