import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../graphql.js';
import { OwnerOnlyNote, useRole } from '../role.js';
import { BASE, Link, useMode, useTitle } from '../router.js';
import { useUnit } from '../unit.js';
import { CardFields, readCard } from '../ui/card-form.js';
import { ErrorNote, FieldProblem, Loading, PageTitle, Section } from '../ui/common.js';
import { Data } from '../ui/data.js';
import { groupCard } from '../format.js';

/** Adding a card (`/dashboard/cards/new`): createCard, every input named as CreateCardInput's field. */
const NewCardData = graphql(`
  query DashboardNewCard {
    viewer {
      merchant {
        id
        devices {
          id
          name
          revoked
        }
        projects {
          id
          name
          sandbox
        }
      }
    }
  }
`);

const CreateCard = graphql(`
  mutation DashboardCreateCard($input: CreateCardInput!) {
    createCard(input: $input) {
      id
      cardNumber
      bankName
      projectId
    }
  }
`);

export function CardNewPage() {
  useTitle('افزودن کارت');
  const { isOwner } = useRole();
  const { unit } = useUnit();
  const sandbox = useMode() === 'test';
  const [result] = useQuery({ query: NewCardData });
  const [state, create] = useMutation(CreateCard);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const merchant = result.data?.viewer?.merchant;
  if (!merchant) return result.error ? <ErrorNote error={result.error} /> : <Loading />;
  const projects = merchant.projects.filter((p) => p.sandbox === sandbox);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const { input, problems: found } = readCard(form, unit, { creating: true });
    const projectId = String(form.get('projectId') ?? '');
    if (!projectId) found.projectId = 'پروژه را انتخاب کنید.';
    setProblems(found);
    if (Object.keys(found).length) return;
    void create(
      { input: { ...input, projectId, bankCode: input.bankCode ?? '', cardNumber: input.cardNumber ?? '', holderName: input.holderName ?? '' } },
      { additionalTypenames: ['Card', 'Project'] },
    );
  };
  const made = state.data?.createCard;
  return (
    <>
      <PageTitle>افزودن کارت</PageTitle>
      <OwnerOnlyNote />
      {made ? (
        <Section title="کارت ساخته شد">
          <p className="ok" role="status" data-card-id={made.id} id="new-card">
            کارت <Data>{groupCard(made.cardNumber)}</Data> ({made.bankName}) ساخته شد.
          </p>
          <p className="buttons">
            <Link to={`${BASE}/cards`} className="button">
              کارت‌ها
            </Link>
            <a href={`${BASE}${sandbox ? '/test' : ''}/cards/new`} className="button secondary">
              کارت دیگر
            </a>
          </p>
        </Section>
      ) : isOwner ? (
        <Section title="کارت تازه">
          {projects.length === 0 ? (
            <p className="muted">
              اول یک پروژه {sandbox ? 'آزمایشی' : 'واقعی'} بسازید: <Link to={`${BASE}/projects`}>پروژه‌ها</Link>
            </p>
          ) : (
            <form onSubmit={submit} noValidate aria-label="کارت تازه">
              <div className="field">
                <label htmlFor="card-project">پروژه</label>
                <select id="card-project" name="projectId" defaultValue={projects.length === 1 ? projects[0]?.id : ''}>
                  {projects.length > 1 && <option value="">انتخاب پروژه</option>}
                  {projects.map((p) => (
                    <option key={p.id} value={p.id} translate="no">
                      {p.name}
                    </option>
                  ))}
                </select>
                {problems.projectId ? <p className="field-error">{problems.projectId}</p> : <FieldProblem error={state.error} name="projectId" />}
              </div>
              <CardFields devices={merchant.devices} unit={unit} problems={problems} error={state.error} creating />
              <ErrorNote error={state.error} />
              <p className="buttons">
                <button type="submit" disabled={state.fetching}>
                  افزودن کارت
                </button>
              </p>
            </form>
          )}
          {merchant.devices.every((d) => d.revoked) && (
            <p className="muted">
              هنوز گوشی‌ای ندارید که پیامک‌های بانک را بفرستد: <Link to={`${BASE}/devices/new`}>افزودن گوشی</Link>
            </p>
          )}
        </Section>
      ) : null}
    </>
  );
}
