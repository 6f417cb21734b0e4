import { type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql, type ResultOf } from '../graphql.js';
import { faNumber, formatPercent } from '../format.js';
import { EVENT_TYPE, label } from '../labels.js';
import { OwnerOnlyNote, useRole } from '../role.js';
import { useTitle } from '../router.js';
import { DateTime, Empty, ErrorNote, Facts, Loading, PageTitle, Section, ShownOnce } from '../ui/common.js';
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
      webhookDeliveries(first: 15) {
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
  mutation DashboardSetEndpoint($projectId: ID!, $url: String!) {
    setWebhookEndpoint(projectId: $projectId, url: $url) {
      secret
      endpoint {
        id
        url
        active
      }
    }
  }
`);

type Project = NonNullable<NonNullable<ResultOf<typeof Webhooks>['viewer']>['merchant']>['projects'][number];

function health(endpoint: NonNullable<Project['webhookEndpoint']>): string {
  if (!endpoint.active) return 'از کار افتاده';
  if (endpoint.failingSince) return 'در حال خطا';
  return 'سالم';
}

function EndpointPanel({ project }: { project: Project }) {
  const [rotated, rotate] = useMutation(Rotate);
  const [set, setEndpoint] = useMutation(SetEndpoint);
  const { isOwner } = useRole();
  const endpoint = project.webhookEndpoint;
  const inputId = `url-${project.id}`;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const url = String(new FormData(e.currentTarget).get('url') ?? '').trim();
    if (url) void setEndpoint({ projectId: project.id, url });
  };
  return (
    <Section title={`${project.name}${project.sandbox ? ' (آزمایشی)' : ''}`}>
      {endpoint ? (
        <div data-endpoint-id={endpoint.id} data-active={String(endpoint.active)}>
          <Facts
            items={[
              ['نشانی', <code dir="ltr">{endpoint.url}</code>],
              ['وضعیت', health(endpoint)],
              ['موفقیت ۲۴ ساعت', `${formatPercent(endpoint.recentSuccessRate)} از ${faNumber(endpoint.recentAttempts)} تلاش`],
              ['خطا از', <DateTime iso={endpoint.failingSince} />],
              ['از کار افتاده', endpoint.disabledAt ? <><DateTime iso={endpoint.disabledAt} /> {endpoint.disabledReason}</> : '—'],
              ['رویدادها', endpoint.events.map((e) => label(EVENT_TYPE, e)).join('، ')],
              ['رمز قبلی معتبر تا', <DateTime iso={endpoint.previousSecretExpiresAt} />],
            ]}
          />
          {isOwner && (
          <div className="buttons">
            <button type="button" className="secondary small" disabled={rotated.fetching} onClick={() => void rotate({ projectId: project.id })}>
              رمز امضای تازه
            </button>
            <button type="button" className="secondary small" disabled title="sendTestWebhook با حساب پذیرنده هنوز پروژه نمی‌گیرد">
              ارسال آزمایشی (به‌زودی)
            </button>
          </div>
          )}
        </div>
      ) : (
        <Empty>نشانی وب‌هوک تنظیم نشده است.</Empty>
      )}
      {rotated.data && <ShownOnce title="رمز امضای تازه" value={rotated.data.rotateWebhookSecret.secret} />}
      {set.data && <ShownOnce title="رمز امضای نشانی تازه" value={set.data.setWebhookEndpoint.secret} />}
      <ErrorNote error={rotated.error ?? set.error} />
      {isOwner && (
      <form className="inline-form" onSubmit={submit}>
        <label htmlFor={inputId}>{endpoint ? 'نشانی تازه (رمز تازه هم ساخته می‌شود)' : 'نشانی وب‌هوک'}</label>
        <input id={inputId} name="url" type="url" dir="ltr" placeholder="https://shop.example.com/webhooks" required />
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
  const [result] = useQuery({ query: Webhooks });
  const data = result.data;
  if (!data) return result.error ? <ErrorNote error={result.error} /> : <Loading />;
  return (
    <>
      <PageTitle>وب‌هوک‌ها</PageTitle>
      <OwnerOnlyNote />
      {(data.viewer?.merchant?.projects ?? []).map((p) => (
        <EndpointPanel key={p.id} project={p} />
      ))}
      <Section title="آخرین ارسال‌ها">
        <Deliveries items={data.webhookDeliveries.edges.map((e) => e.node)} />
      </Section>
    </>
  );
}
