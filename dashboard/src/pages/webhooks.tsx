import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql, type ResultOf } from '../graphql.js';
import { faNumber, formatPercent } from '../format.js';
import { EVENT_TYPE, label } from '../labels.js';
import { OwnerOnlyNote, useRole } from '../role.js';
import { useTitle } from '../router.js';
import { DateTime, Empty, ErrorNote, Facts, FieldProblem, Loading, PageTitle, Section, ShownOnce } from '../ui/common.js';

/** What a new endpoint receives when nothing is chosen (the API's default). */
const DEFAULT_EVENTS: string[] = ['payment.confirmed', 'payment.expired', 'payment.rejected', 'payment.canceled', 'payment.refunded'];
import { ProjectTitle } from '../ui/data.js';
import { useMode } from '../router.js';
import { Deliveries, DeliveryFragment } from '../ui/deliveries.js';

const Webhooks = graphql(
  `
    query DashboardWebhooks {
      viewer {
        merchant {
          id
          projects {
            id
            name
            sandbox
            webhookEndpoint {
              id
              url
              active
              events
              disabledAt
              disabledReason
              failingSince
              recentAttempts
              recentSuccessRate
              previousSecretExpiresAt
              updatedAt
            }
          }
        }
      }
    }
  `,
);

/** A project's latest deliveries: each side's own (a delivery names no project, so it is asked per project). */
const ProjectDeliveriesQuery = graphql(
  `
    query DashboardProjectDeliveries($projectId: ID!) {
      webhookDeliveries(first: 10, projectId: $projectId) {
        edges {
          node {
            ...Delivery
          }
        }
      }
    }
  `,
  [DeliveryFragment],
);

function ProjectDeliveries({ projectId, refreshKey }: { projectId: string; refreshKey: number }) {
  const context = useMemo(() => ({ additionalTypenames: ['WebhookDelivery'], refreshKey }), [refreshKey]);
  const [result] = useQuery({ query: ProjectDeliveriesQuery, variables: { projectId }, context, requestPolicy: refreshKey ? 'network-only' : 'cache-and-network' });
  const data = result.data?.webhookDeliveries;
  if (!data) return result.error ? <ErrorNote error={result.error} /> : <Loading />;
  return <Deliveries items={data.edges.map((e) => e.node)} />;
}

const Rotate = graphql(`
  mutation DashboardRotateSecret($projectId: ID!) {
    rotateWebhookSecret(projectId: $projectId) {
      secret
      endpoint {
        id
        previousSecretExpiresAt
      }
    }
  }
`);

const SetEndpoint = graphql(`
  mutation DashboardSetEndpoint($projectId: ID!, $url: String!, $events: [String!]) {
    setWebhookEndpoint(projectId: $projectId, url: $url, events: $events) {
      secret
      endpoint {
        id
        url
        active
        events
      }
    }
  }
`);

const SendTest = graphql(
  `
    mutation DashboardSendTestWebhook($projectId: ID!) {
      sendTestWebhook(projectId: $projectId) {
        ...Delivery
      }
    }
  `,
  [DeliveryFragment],
);

type Project = NonNullable<NonNullable<ResultOf<typeof Webhooks>['viewer']>['merchant']>['projects'][number];

function health(endpoint: NonNullable<Project['webhookEndpoint']>): string {
  if (!endpoint.active) return 'از کار افتاده';
  if (endpoint.failingSince) return 'در حال خطا';
  return 'سالم';
}

/** What the test send got: delivered (with the endpoint's HTTP status) or why it failed. */
function TestResult({ delivery }: { delivery: ResultOf<typeof SendTest>['sendTestWebhook'] }) {
  const last = delivery.attempts[delivery.attempts.length - 1];
  const answer = last ? (last.responseStatus ? `HTTP ${last.responseStatus}` : (last.error ?? '')) : '';
  const ok = delivery.status === 'succeeded';
  return (
    <p className={ok ? 'ok' : 'error'} role="status" data-test-delivery-id={delivery.id} data-delivery-status={delivery.status}>
      {ok ? 'رویداد آزمایشی رسید' : 'رویداد آزمایشی نرسید'}
      {answer && (
        <>
          {': '}
          <span dir="ltr">{answer}</span>
        </>
      )}
    </p>
  );
}

/** One project's endpoint; `refresh` reads the page again (after a test send: its delivery and the endpoint's health). */
function EndpointPanel({ project, title, refresh }: { project: Project; title: ReactNode; refresh: () => void }) {
  const [rotated, rotate] = useMutation(Rotate);
  const [set, setEndpoint] = useMutation(SetEndpoint);
  const [tested, sendTest] = useMutation(SendTest);
  const { isOwner } = useRole();
  const endpoint = project.webhookEndpoint;
  const inputId = `url-${project.id}`;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const url = String(form.get('url') ?? '').trim();
    const events = form.getAll('events').map(String);
    if (url) void setEndpoint({ projectId: project.id, url, events: events.length ? events : null });
  };
  return (
    <Section title={title}>
      {endpoint ? (
        <div data-endpoint-id={endpoint.id} data-active={String(endpoint.active)}>
          <Facts
            items={[
              ['نشانی', <code dir="ltr" translate="no">{endpoint.url}</code>],
              ['وضعیت', health(endpoint)],
              ['موفقیت ۲۴ ساعت', `${formatPercent(endpoint.recentSuccessRate)} از ${faNumber(endpoint.recentAttempts)} تلاش`],
              ['خطا از', <DateTime iso={endpoint.failingSince} />],
              ['از کار افتاده', endpoint.disabledAt ? <DateTime iso={endpoint.disabledAt} /> : '—'],
              ['رویدادها', endpoint.events.map((e) => label(EVENT_TYPE, e)).join('، ')],
              ['رمز قبلی معتبر تا', <DateTime iso={endpoint.previousSecretExpiresAt} />],
            ]}
          />
          {isOwner && (
          <div className="buttons">
            <button type="button" className="secondary small" disabled={rotated.fetching} onClick={() => void rotate({ projectId: project.id })}>
              رمز امضای تازه
            </button>
            <button type="button" className="secondary small" disabled={tested.fetching} onClick={() => void sendTest({ projectId: project.id }).then(refresh)}>
              ارسال آزمایشی
            </button>
          </div>
          )}
        </div>
      ) : (
        <Empty>نشانی وب‌هوک تنظیم نشده است.</Empty>
      )}
      {rotated.data && <ShownOnce title="رمز امضای تازه" value={rotated.data.rotateWebhookSecret.secret} />}
      {set.data && <ShownOnce title="رمز امضای نشانی تازه" value={set.data.setWebhookEndpoint.secret} />}
      {tested.data && <TestResult delivery={tested.data.sendTestWebhook} />}
      <ErrorNote error={rotated.error ?? set.error ?? tested.error} />
      {isOwner && (
      <form className="action" onSubmit={submit}>
        <label htmlFor={inputId}>{endpoint ? 'نشانی تازه (رمز تازه هم ساخته می‌شود)' : 'نشانی وب‌هوک'}</label>
        <input id={inputId} name="url" type="url" dir="ltr" defaultValue={endpoint?.url ?? ''} required aria-describedby={`${inputId}-help`} />
        <p className="muted" id={`${inputId}-help`}>
          نشانی کامل، با <bdi dir="ltr" translate="no">https://</bdi> {project.sandbox ? '(در پروژهٔ آزمایشی نشانی بی‌رمزنگاری هم پذیرفته است)' : ''}
        </p>
        <FieldProblem error={set.error} name="url" />
        <fieldset className="events">
          <legend>رویدادها</legend>
          {(Object.keys(EVENT_TYPE) as (keyof typeof EVENT_TYPE)[]).map((type) => (
            <div className="check" key={type}>
              <input id={`${inputId}-${type}`} type="checkbox" name="events" value={type} defaultChecked={endpoint ? endpoint.events.includes(type) : DEFAULT_EVENTS.includes(type)} />
              <label htmlFor={`${inputId}-${type}`}>{EVENT_TYPE[type]}</label>
            </div>
          ))}
        </fieldset>
        <button type="submit" className="secondary small" disabled={set.fetching}>
          ذخیره
        </button>
      </form>
      )}
    </Section>
  );
}

export function WebhooksPage() {
  useTitle('وب‌هوک‌ها');
  const [result, refetch] = useQuery({ query: Webhooks });
  const [refreshKey, setRefreshKey] = useState(0);
  const refresh = () => {
    refetch({ requestPolicy: 'network-only' });
    setRefreshKey((n) => n + 1);
  };
  const sandbox = useMode() === 'test';
  const data = result.data;
  if (!data) return result.error ? <ErrorNote error={result.error} /> : <Loading />;
  // The side shown only: live projects, or the sandbox ones under /dashboard/test.
  const projects = (data.viewer?.merchant?.projects ?? []).filter((p) => p.sandbox === sandbox);
  return (
    <>
      <PageTitle>وب‌هوک‌ها</PageTitle>
      <OwnerOnlyNote />
      {projects.map((p) => (
        <EndpointPanel key={p.id} project={p} title={<ProjectTitle project={p} projects={projects} />} refresh={refresh} />
      ))}
      {projects.map((p) => (
        <Section key={`deliveries-${p.id}`} title={<>آخرین ارسال‌ها: <ProjectTitle project={p} projects={projects} /></>}>
          <ProjectDeliveries projectId={p.id} refreshKey={refreshKey} />
        </Section>
      ))}

    </>
  );
}
