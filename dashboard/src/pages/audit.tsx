import { useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../graphql.js';
import { ACTOR_KIND, AUDIT_VIA, label } from '../labels.js';
import { href, navigate, useLocation, useTitle } from '../router.js';
import { useProjects } from '../projects.js';
import { DateTime, Empty, ErrorNote, Loading, PageTitle, Section } from '../ui/common.js';

const Audit = graphql(`
  query DashboardAudit($after: String, $projectId: ID) {
    auditEvents(first: 50, after: $after, projectId: $projectId) {
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

function describeChanges(changes: Record<string, unknown> | null): string {
  if (!changes) return '';
  return Object.entries(changes)
    .map(([field, change]) => {
      if (change && typeof change === 'object' && 'to' in change) {
        const { from, to } = change as { from?: unknown; to?: unknown };
        return `${field}: ${from === undefined ? '' : `${JSON.stringify(from)} → `}${JSON.stringify(to)}`;
      }
      return `${field}: ${JSON.stringify(change)}`;
    })
    .join('، ');
}

function AuditPageOf({ after, projectId, isLast, onMore }: { after: string | null; projectId: string | null; isLast: boolean; onMore: (c: string) => void }) {
  const [result] = useQuery({ query: Audit, variables: { after, projectId } });
  const data = result.data?.auditEvents;
  if (!data) return result.error ? <ErrorNote error={result.error} /> : <Loading />;
  if (after === null && data.edges.length === 0) return <Empty>رویدادی ثبت نشده است.</Empty>;
  return (
    <>
      <ul className="rows">
        {data.edges.map(({ node }) => (
          <li key={node.id} className="row" data-audit-id={node.id}>
            <div className="row-main">
              <code dir="ltr">{node.action}</code>
              <DateTime iso={node.at} />
            </div>
            <div className="row-meta">
              <span>
                {label(ACTOR_KIND, node.actor.kind)}: <span dir="auto">{node.actor.label}</span>
              </span>
              <span>از راه {label(AUDIT_VIA, node.via)}</span>
              <span dir="ltr">
                {node.subjectType} {node.subjectId.slice(0, 8)}
              </span>
            </div>
            {node.note && <p>یادداشت: {node.note}</p>}
            {node.changes && (
              <p className="muted changes" dir="ltr">
                {describeChanges(node.changes)}
              </p>
            )}
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
  const projects = useProjects();
  const [pages, setPages] = useState<{ key: string | null; list: (string | null)[] }>({ key: projectId, list: [null] });
  const list = pages.key === projectId ? pages.list : [null];
  return (
    <>
      <PageTitle>گزارش تغییرات</PageTitle>
      <Section title="همهٔ تصمیم‌ها و تغییرها، تازه‌ترین اول">
        <div className="inline-form">
          <label htmlFor="audit-project">پروژه</label>
          <select id="audit-project" value={projectId ?? ''} onChange={(e) => navigate(href('/audit', { project: e.target.value || undefined }))}>
            <option value="">همه</option>
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        {list.map((after, i) => (
          <AuditPageOf
            key={`${projectId}-${after ?? 'first'}`}
            after={after}
            projectId={projectId}
            isLast={i === list.length - 1}
            onMore={(c) => setPages({ key: projectId, list: [...list, c] })}
          />
        ))}
      </Section>
    </>
  );
}
