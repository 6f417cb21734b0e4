import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../graphql.js';
import { parseAmount } from '../format.js';
import { OwnerOnlyNote, useRole } from '../role.js';
import { useTitle } from '../router.js';
import { Amount, useUnit } from '../unit.js';
import { CopyButton, DateTime, Empty, ErrorNote, Loading, PageTitle, Section } from '../ui/common.js';
import { Data, Name, ProjectTitle } from '../ui/data.js';
import { useMode } from '../router.js';

const Links = graphql(`
  query DashboardLinks {
    viewer {
      merchant {
        id
        projects {
          id
          name
          sandbox
          links {
            id
            slug
            title
            description
            amount
            minAmount
            maxAmount
            active
            createdAt
          }
        }
      }
    }
  }
`);

const CreateLink = graphql(`
  mutation DashboardCreateLink($input: CreatePaymentLinkInput!) {
    createPaymentLink(input: $input) {
      id
      slug
      projectId
    }
  }
`);

const UpdateLink = graphql(`
  mutation DashboardUpdateLink($id: ID!, $input: UpdatePaymentLinkInput!) {
    updatePaymentLink(id: $id, input: $input) {
      id
      active
    }
  }
`);

/** Stops a link taking payments, or lets it again (updatePaymentLink `active`). */
function LinkActiveButton({ id, active }: { id: string; active: boolean }) {
  const [state, update] = useMutation(UpdateLink);
  return (
    <>
      <button type="button" className="secondary small" disabled={state.fetching} onClick={() => void update({ id, input: { active: !active } })}>
        {active ? 'غیرفعال کردن پیوند' : 'فعال کردن پیوند'}
      </button>
      <ErrorNote error={state.error} />
    </>
  );
}

function NewLinkForm({ projects }: { projects: { id: string; name: string }[] }) {
  const { unit } = useUnit();
  const [state, create] = useMutation(CreateLink);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const amount = (name: string) => (text(name) ? parseAmount(text(name), unit) : undefined);
    const amounts = { amount: amount('amount'), minAmount: amount('min'), maxAmount: amount('max') };
    if (Object.values(amounts).some((a) => a === null)) return setProblem('مبلغ‌ها را با رقم بنویسید.');
    setProblem(null);
    void create({
      input: {
        projectId: text('project'),
        slug: text('slug'),
        title: text('title'),
        description: text('description') || undefined,
        amount: amounts.amount ?? undefined,
        minAmount: amounts.minAmount ?? undefined,
        maxAmount: amounts.maxAmount ?? undefined,
      },
    });
  };
  const unitName = unit === 'toman' ? 'تومان' : 'ریال';
  return (
    <form className="grid-form" onSubmit={submit} aria-label="پیوند تازه">
      <div className="field">
        <label htmlFor="link-project">پروژه</label>
        <select id="link-project" name="project" required>
          {projects.map((p) => (
            <option key={p.id} value={p.id} translate="no">
              {p.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="link-slug">نشانی (لاتین)</label>
        <input id="link-slug" name="slug" dir="ltr" pattern="[a-z0-9][a-z0-9-]*" required />
      </div>
      <div className="field">
        <label htmlFor="link-title">عنوان</label>
        <input id="link-title" name="title" required />
      </div>
      <div className="field">
        <label htmlFor="link-description">توضیح</label>
        <input id="link-description" name="description" />
      </div>
      <div className="field">
        <label htmlFor="link-amount">مبلغ ثابت به {unitName} (خالی: پرداخت‌کننده تعیین می‌کند)</label>
        <input id="link-amount" name="amount" inputMode="numeric" dir="ltr" />
      </div>
      <div className="field">
        <label htmlFor="link-min">کمترین مبلغ به {unitName}</label>
        <input id="link-min" name="min" inputMode="numeric" dir="ltr" />
      </div>
      <div className="field">
        <label htmlFor="link-max">بیشترین مبلغ به {unitName}</label>
        <input id="link-max" name="max" inputMode="numeric" dir="ltr" />
      </div>
      <ErrorNote text={problem} />
      {!problem && <ErrorNote error={state.error} />}
      {state.data && (
        <p className="ok" role="status">
          پیوند /l/{state.data.createPaymentLink.slug} ساخته شد.
        </p>
      )}
      <div className="field buttons">
        <button type="submit" disabled={state.fetching}>
          ساختن پیوند
        </button>
      </div>
    </form>
  );
}

export function LinksPage() {
  useTitle('پیوندهای پرداخت');
  const [result] = useQuery({ query: Links });
  const { isOwner } = useRole();
  const sandbox = useMode() === 'test';
  const all = result.data?.viewer?.merchant?.projects;
  if (!all) return result.error ? <ErrorNote error={result.error} /> : <Loading />;
  // The side shown only: live projects, or the sandbox ones under /dashboard/test.
  const projects = all.filter((p) => p.sandbox === sandbox);
  return (
    <>
      <PageTitle>پیوندهای پرداخت</PageTitle>
      <OwnerOnlyNote />
      {projects.map((project) => (
        <Section key={project.id} title={<ProjectTitle project={project} projects={projects} />}>
          {project.links.length === 0 ? (
            <Empty>پیوندی ندارد.</Empty>
          ) : (
            <ul className="rows">
              {project.links.map((link) => {
                const url = `${window.location.origin}/l/${link.slug}`;
                return (
                  <li key={link.id} className="row" data-link-id={link.id}>
                    <div className="row-main">
                      <strong>
                        <Name>{link.title}</Name>
                      </strong>
                      <span className={`status ${link.active ? 'status-confirmed' : 'status-expired'}`}>{link.active ? 'فعال' : 'غیرفعال'}</span>
                    </div>
                    <div className="row-meta">
                      {link.amount ? (
                        <Amount rials={link.amount} />
                      ) : (
                        <span>
                          مبلغ آزاد <Amount rials={link.minAmount} /> تا <Amount rials={link.maxAmount} />
                        </span>
                      )}
                      <DateTime iso={link.createdAt} />
                    </div>
                    <p>
                      <a href={url} dir="ltr" translate="no">
                        {url}
                      </a>{' '}
                      <CopyButton text={url} label="کپی نشانی" /> {isOwner && <LinkActiveButton id={link.id} active={link.active} />}
                    </p>
                  </li>
                );
              })}
            </ul>
          )}
        </Section>
      ))}
      {isOwner && (
        <Section title="پیوند تازه">
          <NewLinkForm projects={projects} />
        </Section>
      )}
    </>
  );
}
