import { useMutation, useQuery } from 'urql';
import { graphql, type ResultOf } from '../graphql.js';
import { faNumber, formatAgo } from '../format.js';
import { OwnerOnlyNote, useRole } from '../role.js';
import { useTitle } from '../router.js';
import { DateTime, Empty, ErrorNote, Facts, Loading, PageTitle, Section, ShownOnce } from '../ui/common.js';

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
        <strong>{device.name}</strong>
        <span className={`status status-device-${state}`}>{device.revoked ? 'باطل‌شده' : device.online ? 'آنلاین' : 'آفلاین'}</span>
      </div>
      <Facts
        items={[
          ['آخرین تماس', <span title={device.lastSeenAt ?? ''}>{formatAgo(device.lastSeenAt)}</span>],
          ['آخرین پیامک', <DateTime iso={device.lastMessageAt} />],
          ['کارت‌ها', faNumber(cards)],
          ['توکن', <code dir="ltr">{device.tokenPrefix}…</code>],
          ['نشانی هوک فرستنده', device.hookSecretPrefix ? <code dir="ltr">…/v1/device/hooks/{device.hookSecretPrefix}…</code> : 'ندارد'],
        ]}
      />
      {issued.data && <ShownOnce title="نشانی هوک تازه" value={issued.data.issueDeviceHook.hookUrl} />}
      <ErrorNote error={issued.error ?? revoked.error} />
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

export function DevicesPage() {
  useTitle('گوشی‌ها');
  const [result] = useQuery({ query: Devices });
  const merchant = result.data?.viewer?.merchant;
  if (!merchant) return result.error ? <ErrorNote error={result.error} /> : result.data ? <ErrorNote text="این بخش فقط برای حساب پذیرنده است." /> : <Loading />;
  const cards = merchant.projects.flatMap((p) => p.cards);
  return (
    <>
      <PageTitle>گوشی‌ها</PageTitle>
      <OwnerOnlyNote />
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
