import { useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql, type ResultOf } from '../graphql.js';
import { faNumber, formatDuration, latinDigits } from '../format.js';
import { OwnerOnlyNote, useRole } from '../role.js';
import { useMode, useTitle } from '../router.js';
import { Amount } from '../unit.js';
import { DateTime, Empty, ErrorNote, Facts, FieldProblem, Loading, PageTitle, Section, ShownOnce } from '../ui/common.js';
import { Data, Name, ProjectTitle } from '../ui/data.js';

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
          color
          logoUrl
          supportPhone
          allowedCallbackHosts
          note
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

const UpdateProject = graphql(`
  mutation DashboardUpdateProject($id: ID!, $input: UpdateProjectInput!) {
    updateProject(id: $id, input: $input) {
      id
      name
      displayName
      active
      autoConfirm
      paymentTimeLimitSeconds
      lateWindowSeconds
      maxCode
      color
      logoUrl
      supportPhone
      allowedCallbackHosts
      note
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
        <code dir="ltr" translate="no">
          {apiKey.prefix}…
        </code>
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

/** A project's settings (updateProject), each input named as UpdateProjectInput's field. */
function SettingsForm({ project }: { project: Project }) {
  const [state, update] = useMutation(UpdateProject);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [limit, setLimit] = useState(String(project.paymentTimeLimitSeconds));
  const [late, setLate] = useState(String(project.lateWindowSeconds));
  const id = `project-${project.id}`;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const text = (name: string) => latinDigits(String(form.get(name) ?? '')).trim();
    const found: Record<string, string> = {};
    const whole = (name: string) => {
      if (!/^\d{1,7}$/.test(text(name))) found[name] = 'عدد درست بنویسید.';
      return Number(text(name));
    };
    const input = {
      name: text('name'),
      displayName: text('displayName') || null,
      paymentTimeLimitSeconds: whole('paymentTimeLimitSeconds'),
      lateWindowSeconds: whole('lateWindowSeconds'),
      maxCode: whole('maxCode'),
      autoConfirm: form.get('autoConfirm') === 'on',
      active: form.get('active') === 'on',
      color: text('color') || null,
      logoUrl: text('logoUrl') || null,
      supportPhone: text('supportPhone') || null,
      allowedCallbackHosts: text('allowedCallbackHosts')
        .split(/[\s,،]+/)
        .filter(Boolean),
      note: text('note') || null,
    };
    if (!input.name) found.name = 'نام پروژه را بنویسید.';
    setProblems(found);
    if (Object.keys(found).length === 0) void update({ id: project.id, input });
  };
  const problem = (name: string) =>
    problems[name] ? (
      <p className="field-error" role="alert" data-field-error={name}>
        {problems[name]}
      </p>
    ) : (
      <FieldProblem error={state.error} name={name} />
    );
  const field = (name: string, label: ReactNode, input: ReactNode, help?: ReactNode) => (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      {input}
      {help && <p className="muted small-help">{help}</p>}
      {problem(name)}
    </div>
  );
  return (
    <form className="action" onSubmit={submit} noValidate aria-label="تنظیمات پروژه">
      <div className="grid-form">
        {field('name', 'نام', <input id={`${id}-name`} name="name" defaultValue={project.name} maxLength={100} />)}
        {field('displayName', 'نام در صفحهٔ پرداخت', <input id={`${id}-displayName`} name="displayName" defaultValue={project.displayName ?? ''} maxLength={100} />)}
        {field(
          'paymentTimeLimitSeconds',
          'مهلت پرداخت (ثانیه)',
          <input id={`${id}-paymentTimeLimitSeconds`} name="paymentTimeLimitSeconds" inputMode="numeric" dir="ltr" value={limit} onChange={(e) => setLimit(e.target.value)} />,
          `یعنی ${formatDuration(Number(latinDigits(limit)))}`,
        )}
        {field(
          'lateWindowSeconds',
          'مهلت دیرکرد (ثانیه)',
          <input id={`${id}-lateWindowSeconds`} name="lateWindowSeconds" inputMode="numeric" dir="ltr" value={late} onChange={(e) => setLate(e.target.value)} />,
          `یعنی ${formatDuration(Number(latinDigits(late)))}؛ واریزی که تا این مدت پس از مهلت برسد هنوز پذیرفته می‌شود`,
        )}
        {field('maxCode', 'بزرگ‌ترین کد یکتا (ریال)', <input id={`${id}-maxCode`} name="maxCode" inputMode="numeric" dir="ltr" defaultValue={project.maxCode} />, 'کد یکتا به مبلغ افزوده می‌شود تا واریز هر پرداخت از دیگری جدا شود')}
        {field('color', 'رنگ صفحهٔ پرداخت', <input id={`${id}-color`} name="color" type="color" defaultValue={project.color ?? '#1d4ed8'} />)}
        {field('logoUrl', 'نشانی لوگو', <input id={`${id}-logoUrl`} name="logoUrl" type="url" dir="ltr" defaultValue={project.logoUrl ?? ''} />)}
        {field('supportPhone', 'تلفن پشتیبانی', <input id={`${id}-supportPhone`} name="supportPhone" inputMode="tel" dir="ltr" defaultValue={project.supportPhone ?? ''} />)}
        {field(
          'allowedCallbackHosts',
          'میزبان‌های مجاز نشانی بازگشت',
          <textarea id={`${id}-allowedCallbackHosts`} name="allowedCallbackHosts" dir="ltr" rows={2} defaultValue={project.allowedCallbackHosts.join('\n')} />,
          'هر میزبان در یک سطر؛ خالی یعنی هر میزبانی',
        )}
        {field('note', 'یادداشت', <input id={`${id}-note`} name="note" defaultValue={project.note ?? ''} maxLength={300} />)}
        <div className="check">
          <input id={`${id}-autoConfirm`} name="autoConfirm" type="checkbox" defaultChecked={project.autoConfirm} />
          <label htmlFor={`${id}-autoConfirm`}>تأیید خودکار با پیامک بانک</label>
        </div>
        <div className="check">
          <input id={`${id}-active`} name="active" type="checkbox" defaultChecked={project.active} />
          <label htmlFor={`${id}-active`}>پروژه فعال است</label>
        </div>
      </div>
      <ErrorNote error={state.error} />
      {state.data && !state.fetching && !state.error && (
        <p className="ok" role="status">
          تنظیمات ذخیره شد.
        </p>
      )}
      <button type="submit" disabled={state.fetching}>
        ذخیرهٔ تنظیمات
      </button>
    </form>
  );
}

function ProjectPanel({ project, title }: { project: Project; title: ReactNode }) {
  const [created, createKey] = useMutation(CreateKey);
  const { isOwner } = useRole();
  return (
    <Section title={title}>
      <Facts
        items={[
          ['وضعیت', project.suspended ? 'معلق (با اپراتور تماس بگیرید)' : project.active ? 'فعال' : 'غیرفعال'],
          ['نام در صفحهٔ پرداخت', <Name>{project.displayName ?? project.name}</Name>],
          ['مهلت پرداخت', formatDuration(project.paymentTimeLimitSeconds)],
          ['مهلت دیرکرد', formatDuration(project.lateWindowSeconds)],
          ['شناسهٔ پروژه', <Data className="code">{project.id}</Data>],
          ['تأیید خودکار', project.autoConfirm ? 'بله' : 'خیر'],
          ['کارمزد', <span>{faNumber((project.feeBps / 100).toString().replace('.', '٫'))}٪ (<Amount rials={project.feeMin} /> تا <Amount rials={project.feeMax} />)</span>],
        ]}
      />
      {isOwner && (
        <details>
          <summary>تنظیمات پروژه</summary>
          <SettingsForm project={project} />
        </details>
      )}
      <h3>کلیدهای برنامه‌نویسی</h3>
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
  const sandbox = useMode() === 'test';
  const [state, create] = useMutation(CreateProject);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    void create({ input: { name: String(form.get('name') ?? '').trim(), sandbox: form.get('sandbox') === 'on' } }, { additionalTypenames: ['Project', 'Merchant'] });
  };
  return (
    <Section title="پروژهٔ تازه">
      <form className="inline-form" onSubmit={submit}>
        <label htmlFor="project-name">نام</label>
        <input id="project-name" name="name" required maxLength={100} />
        <div className="check">
          <input id="project-sandbox" name="sandbox" type="checkbox" defaultChecked={sandbox} />
          <label htmlFor="project-sandbox">آزمایشی (واریزهای شبیه‌سازی‌شده، بدون کارمزد)</label>
        </div>
        <button type="submit" className="secondary small" disabled={state.fetching}>
          ساختن
        </button>
      </form>
      {state.data && <ShownOnce title="کلید برنامه‌نویسی پروژهٔ تازه" value={state.data.createProject.apiKey} />}
      <FieldProblem error={state.error} name="name" />
      <ErrorNote error={state.error} />
    </Section>
  );
}

export function ProjectsPage() {
  useTitle('پروژه‌ها و کلیدها');
  const [result] = useQuery({ query: Projects });
  const { isOwner } = useRole();
  const sandbox = useMode() === 'test';
  const all = result.data?.viewer?.merchant?.projects;
  if (!all) return result.error ? <ErrorNote error={result.error} /> : <Loading />;
  // The side shown only: live projects, or the sandbox ones under /dashboard/test.
  const projects = all.filter((p) => p.sandbox === sandbox);
  return (
    <>
      <PageTitle>پروژه‌ها و کلیدها{sandbox ? ' (آزمایشی)' : ''}</PageTitle>
      <OwnerOnlyNote />
      {projects.length === 0 && <Empty>پروژهٔ {sandbox ? 'آزمایشی' : 'واقعی'}ی ندارید.</Empty>}
      {projects.map((p) => (
        <ProjectPanel key={p.id} project={p} title={<ProjectTitle project={p} projects={projects} />} />
      ))}
      {isOwner && <NewProject />}
    </>
  );
}
