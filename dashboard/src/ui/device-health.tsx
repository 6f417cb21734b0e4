import { useState } from 'react';
import { useQuery } from 'urql';
import { faNumber, formatAgo } from '../format.js';
import { graphql, type EnumOf } from '../graphql.js';
import { Data } from './data.js';
import { DateTime, ErrorNote, Facts, Loading } from './common.js';

/**
 * A phone's health at a glance (docs/forwarders.md "Phone health"): its state in words with what to
 * do, battery and charging, network, last SMS and last heartbeat, and on demand its timeline.
 */
type Health = EnumOf<'DeviceHealth'>;
type Network = EnumOf<'DeviceNetwork'>;

export const HEALTH: Record<Health, { label: string; hint: string }> = {
  ok: { label: 'سالم', hint: 'گوشی در دسترس است و پیامک‌های بانک می‌رسد.' },
  low_battery: { label: 'باتری کم', hint: 'باتری ۱۵٪ یا کمتر است و شارژ نمی‌شود: گوشی را به شارژر بزنید.' },
  offline: { label: 'آفلاین', hint: 'پنج دقیقه از گوشی خبری نرسیده: روشن بودن گوشی، اینترنت و باز بودن برنامهٔ فرستنده را بررسی کنید.' },
  silent: {
    label: 'بی‌پیامک',
    hint: 'گوشی در دسترس است ولی شش ساعت پیامکی از بانک نفرستاده، با اینکه پرداخت ساخته شده: سیم‌کارت انتخاب‌شده در برنامه، خاموش بودن RCS برای خط بانک و اجازهٔ پیامک برنامه را بررسی کنید.',
  },
};

const NETWORK: Record<Network, string> = { wifi: 'وای‌فای', mobile: 'اینترنت همراه', none: 'بی‌اینترنت' };

export type DeviceHealthData = {
  id: string;
  health: Health;
  battery: number | null;
  charging: boolean | null;
  network: Network | null;
  appVersion: string | null;
  lastHeartbeatAt: string | null;
  lastMessageAt: string | null;
};

// The badge colours of the dashboard's own states: ok is good, offline bad, the others a warning.
const TONE: Record<Health, string> = { ok: 'status-confirmed', low_battery: 'status-pending', silent: 'status-pending', offline: 'status-rejected' };

export function HealthBadge({ health }: { health: Health }) {
  return (
    <span className={`status ${TONE[health]}`} title={HEALTH[health].hint} data-health={health}>
      {HEALTH[health].label}
    </span>
  );
}

function battery(d: DeviceHealthData): string {
  if (d.battery == null) return 'نامعلوم';
  return `${faNumber(d.battery)}٪${d.charging ? ' · در حال شارژ' : d.charging === false ? ' · بدون شارژر' : ''}`;
}

/** The facts of a phone's health, and the advice for a state other than ok. */
export function HealthFacts({ device }: { device: DeviceHealthData }) {
  return (
    <>
      {device.health !== 'ok' && <p className="row-flag" role="note">{HEALTH[device.health].hint}</p>}
      <Facts
        items={[
          ['باتری', battery(device)],
          ['اینترنت', device.network ? NETWORK[device.network] : 'نامعلوم'],
          ['آخرین پیامک', <DateTime iso={device.lastMessageAt} />],
          ['آخرین تماس (ضربان)', <span>{formatAgo(device.lastHeartbeatAt)}</span>],
          ['نسخهٔ برنامه', device.appVersion ? <Data>{device.appVersion}</Data> : 'نامعلوم'],
        ]}
      />
    </>
  );
}

const Timeline = graphql(`
  query DashboardDeviceHealthTimeline($id: ID!) {
    node(id: $id) {
      ... on Device {
        id
        healthEvents(first: 20) {
          edges {
            node {
              at
              from
              to
            }
          }
        }
      }
    }
  }
`);

function TimelineList({ deviceId }: { deviceId: string }) {
  const [result] = useQuery({ query: Timeline, variables: { id: deviceId } });
  const node = result.data?.node;
  if (!node) return result.error ? <ErrorNote error={result.error} /> : <Loading />;
  const edges = 'healthEvents' in node ? node.healthEvents.edges : [];
  if (edges.length === 0) return <p className="muted">هنوز تغییری ثبت نشده است.</p>;
  return (
    <ol className="timeline" data-health-timeline={deviceId}>
      {edges.map(({ node: e }) => (
        <li key={`${e.at}-${e.to}`}>
          <DateTime iso={e.at} />: {HEALTH[e.from].label} ← {HEALTH[e.to].label}
        </li>
      ))}
    </ol>
  );
}

/** The phone's health timeline, loaded when opened. */
export function HealthTimeline({ deviceId }: { deviceId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>تاریخچهٔ سلامت گوشی</summary>
      {open && <TimelineList deviceId={deviceId} />}
    </details>
  );
}
