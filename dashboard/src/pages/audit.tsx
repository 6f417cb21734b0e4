import { useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../graphql.js';
import { ACTOR_KIND, AUDIT_ACTION, AUDIT_SUBJECT, AUDIT_VIA, FIELD, known, label } from '../labels.js';
import { href, navigate, useLocation, useTitle } from '../router.js';
import { useProjects } from '../projects.js';
import { Data, Name } from '../ui/data.js';
import { DateTime, Empty, ErrorNote, Loading, PageTitle, Section } from '../ui/common.js';

const Audit = graphql(`
  query DashboardAudit($after: String, $projectId: ID, $sandbox: Boolean) {
    auditEvents(first: 50, after: $after, projectId: $projectId, sandbox: $sandbox) {
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          at
          action
          subjectType
          subjectId
          projectId
          note
          changes
          via
          actor {
            kind
            id
            label
          }
        }
      }
    }
  }
`);

/** A value of a change as a person reads it: empty as «خالی», yes/no in Persian, the rest as data. */
function ChangeValue({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '') return <>خالی</>;
  if (value === true) return <>بله</>;
  if (value === false) return <>خیر</>;
  return <Data>{typeof value === 'string' ? value : JSON.stringify(value)}</Data>;
}

/** The changes as «field: before → after», each field by its form's Persian name. */
function Changes({ changes }: { changes: Record<string, unknown> }) {
  return (
    <ul className="muted changes">
      {Object.entries(changes).map(([field, change]) => {
        const name = known(FIELD, field) ?? <Data>{field}</Data>;
        if (change && typeof change === 'object' && 'to' in change) {
          const { from, to } = change as { from?: unknown; to?: unknown };
          return (
            <li key={field}>
              {name}:{' '}
              {from !== undefined && (
                <>
                  <ChangeValue value={from} />
                  {' ← '}
                </>
              )}
              <ChangeValue value={to} />
            </li>
          );
        }
        return (
          <li key={field}>
            {name}: <ChangeValue value={change} />
          </li>
        );
      })}
    </ul>
  );
}

function AuditPageOf({ after, projectId, sandbox, isLast, onMore }: { after: string | null; projectId: string | null; sandbox: boolean; isLast: boolean; onMore: (c: string) => void }) {
  const [result] = useQuery({ query: Audit, variables: { after, projectId, sandbox } });
  const data = result.data?.auditEvents;
  if (!data) return result.error ? <ErrorNote error={result.error} /> : <Loading />;
  if (after === null && data.edges.length === 0) return <Empty>رویدادی ثبت نشده است.</Empty>;
  return (
    <>
      <ul className="rows">
        {data.edges.map(({ node }) => (
          <li key={node.id} className="row" data-audit-id={node.id}>
            <div className="row-main">
              <strong data-action={node.action}>{known(AUDIT_ACTION, node.action) ?? <Data>{node.action}</Data>}</strong>
              <DateTime iso={node.at} />
            </div>
            <div className="row-meta">
              <span>
                {label(ACTOR_KIND, node.actor.kind)}
                {node.actor.kind === 'operator' || node.actor.kind === 'system' ? null : (
                  <>
                    : <Data>{node.actor.label}</Data>
                  </>
                )}
              </span>
              <span>از راه {label(AUDIT_VIA, node.via)}</span>
              <span>
                {known(AUDIT_SUBJECT, node.subjectType) ?? 'موضوع'} <Data>{node.subjectId.slice(0, 8)}</Data>
              </span>
            </div>
            {node.note && (
              <p>
                یادداشت: <Name>{node.note}</Name>
              </p>
            )}
            {node.changes && <Changes changes={node.changes} />}
          </li>
        ))}
      </ul>
      {isLast && data.pageInfo.hasNextPage && data.pageInfo.endCursor && (
        <button type="button" className="secondary more" onClick={() => onMore(data.pageInfo.endCursor ?? '')}>
          رویدادهای قدیمی‌تر
        </button>
      )}
    </>
  );
}

export function AuditPage() {
  useTitle('گزارش تغییرات');
  const { query } = useLocation();
  const projectId = query.get('project');
  const { mode } = useLocation();
  const all = useProjects();
  // The side shown only (`sandbox`): the other side's projects' events are left out by the API
  // (merchant-wide ones are on both sides).
  const sandbox = mode === 'test';
  const projects = all.filter((p) => p.sandbox === sandbox);
  // The pages read so far, for this side and project (another choice starts again at the newest).
  const pagesKey = `${mode}:${projectId ?? ''}`;
  const [pages, setPages] = useState<{ key: string; list: (string | null)[] }>({ key: pagesKey, list: [null] });
  const list = pages.key === pagesKey ? pages.list : [null];
  return (
    <>
      <PageTitle>گزارش تغییرات</PageTitle>
      <Section title="همهٔ تصمیم‌ها و تغییرها، تازه‌ترین اول">
        <div className="inline-form">
          <label htmlFor="audit-project">پروژه</label>
          <select id="audit-project" value={projectId ?? ''} onChange={(e) => navigate(href('/audit', { project: e.target.value || undefined }))}>
            <option value="">همه</option>
            {projects.map((p) => (
              <option key={p.id} value={p.id} translate="no">
                {p.name}
              </option>
            ))}
          </select>
        </div>
        {list.map((after, i) => (
          <AuditPageOf
            key={`${mode}-${projectId}-${after ?? 'first'}`}
            after={after}
            projectId={projectId}
            sandbox={sandbox}
            isLast={i === list.length - 1}
            onMore={(c) => setPages({ key: pagesKey, list: [...list, c] })}
          />
        ))}
      </Section>
    </>
  );
}
