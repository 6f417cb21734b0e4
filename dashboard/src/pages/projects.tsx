import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql, type ResultOf } from '../graphql.js';
import { faNumber } from '../format.js';
import { OwnerOnlyNote, useRole } from '../role.js';
import { useTitle } from '../router.js';
import { Amount } from '../unit.js';
import { DateTime, ErrorNote, Facts, Loading, PageTitle, Section, ShownOnce } from '../ui/common.js';
import { projectTitles } from '../projects.js';

const Projects = graphql(`
  query DashboardProjectKeys {
    viewer {
      merchant {
        id
        projects {
          id
          name
          displayName
          sandbox
          active
          suspended
          autoConfirm
          paymentTimeLimitSeconds
          lateWindowSeconds
          maxCode
          feeBps
          feeMin
          feeMax
          createdAt
          apiKeys {
            id
            prefix
            revoked
            createdAt
            revokedAt
          }
        }
      }
    }
  }
`);

const CreateKey = graphql(`
  mutation DashboardCreateKey($projectId: ID!) {
    createApiKey(projectId: $projectId) {
      key
      apiKey {
        id
        prefix
      }
    }
  }
`);

const RevokeKey = graphql(`
  mutation DashboardRevokeKey($id: ID!) {
    revokeApiKey(id: $id) {
      id
      revoked
      revokedAt
    }
  }
`);

const CreateProject = graphql(`
  mutation DashboardCreateProject($input: CreateProjectInput!) {
    createProject(input: $input) {
      apiKey
      project {
        id
        name
      }
    }
  }
`);

type Project = NonNullable<NonNullable<ResultOf<typeof Projects>['viewer']>['merchant']>['projects'][number];

function KeyItem({ apiKey }: { apiKey: Project['apiKeys'][number] }) {
  const [sure, setSure] = useState(false);
  const [state, revoke] = useMutation(RevokeKey);
  const { isOwner } = useRole();
  return (
    <li className="row" data-api-key-id={apiKey.id}>
      <div className="row-main">
        <code dir="ltr">{apiKey.prefix}…</code>
        <span className={`status ${apiKey.revoked ? 'status-rejected' : 'status-confirmed'}`}>{apiKey.revoked ? 'باطل‌شده' : 'فعال'}</span>
        <DateTime iso={apiKey.createdAt} />
      </div>
      <ErrorNote error={state.error} />
      {!apiKey.revoked &&
        isOwner &&
        (sure ? (
          <div className="buttons">
            <button type="button" className="danger small" disabled={state.fetching} onClick={() => void revoke({ id: apiKey.id })}>
              بله، باطل شود
            </button>
            <button type="button" className="secondary small" onClick={() => setSure(false)}>
              انصراف
            </button>
          </div>
        ) : (
          <button type="button" className="secondary small" onClick={() => setSure(true)}>
            باطل کردن کلید
          </button>
        ))}
    </li>
  );
}

function ProjectPanel({ project, title }: { project: Project; title: string }) {
  const [created, createKey] = useMutation(CreateKey);
  const { isOwner } = useRole();
  return (
    <Section title={title}>
      <Facts
        items={[
          ['وضعیت', project.suspended ? 'معلق (با اپراتور تماس بگیرید)' : project.active ? 'فعال' : 'غیرفعال'],
          ['نام در صفحهٔ پرداخت', project.displayName ?? project.name],
          ['مهلت پرداخت', `${faNumber(Math.round(project.paymentTimeLimitSeconds / 60))} دقیقه`],
          ['مهلت دیرکرد', `${faNumber(Math.round(project.lateWindowSeconds / 60))} دقیقه`],
          ['تأیید خودکار', project.autoConfirm ? 'بله' : 'خیر'],
          ['کارمزد', <span>{faNumber((project.feeBps / 100).toString().replace('.', '٫'))}٪ (<Amount rials={project.feeMin} /> تا <Amount rials={project.feeMax} />)</span>],
        ]}
      />
      <h3>کلیدهای API</h3>
      <ul className="rows">
        {project.apiKeys.map((k) => (
          <KeyItem key={k.id} apiKey={k} />
        ))}
      </ul>
      {created.data && <ShownOnce title="کلید تازه" value={created.data.createApiKey.key} />}
      <ErrorNote error={created.error} />
      {isOwner && (
        <button type="button" className="secondary small" disabled={created.fetching} onClick={() => void createKey({ projectId: project.id })}>
          کلید تازه
        </button>
      )}
    </Section>
  );
}

function NewProject() {
  const [state, create] = useMutation(CreateProject);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    void create({ input: { name: String(form.get('name') ?? '').trim(), sandbox: form.get('sandbox') === 'on' } });
  };
  return (
    <Section title="پروژهٔ تازه">
      <form className="inline-form" onSubmit={submit}>
        <label htmlFor="project-name">نام</label>
        <input id="project-name" name="name" required maxLength={100} />
        <div className="check">
          <input id="project-sandbox" name="sandbox" type="checkbox" />
          <label htmlFor="project-sandbox">آزمایشی (sandbox)</label>
        </div>
        <button type="submit" className="secondary small" disabled={state.fetching}>
          ساختن
        </button>
      </form>
      {state.data && <ShownOnce title={`کلید API پروژهٔ «${state.data.createProject.project.name}»`} value={state.data.createProject.apiKey} />}
      <ErrorNote error={state.error} />
    </Section>
  );
}

export function ProjectsPage() {
  useTitle('پروژه‌ها و کلیدها');
  const [result] = useQuery({ query: Projects });
  const { isOwner } = useRole();
  const projects = result.data?.viewer?.merchant?.projects;
  if (!projects) return result.error ? <ErrorNote error={result.error} /> : <Loading />;
  return (
    <>
      <PageTitle>پروژه‌ها و کلیدها</PageTitle>
      <OwnerOnlyNote />
      {projects.map((p) => (
        <ProjectPanel key={p.id} project={p} title={projectTitles(projects).get(p.id)!} />
      ))}
      {isOwner && <NewProject />}
    </>
  );
}
