import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../graphql.js';
import { OwnerOnlyNote, useRole } from '../role.js';
import { BASE, Link, useTitle } from '../router.js';
import { CopyButton, ErrorNote, FieldProblem, PageTitle, Section } from '../ui/common.js';
import { Data, Name } from '../ui/data.js';
import { QrCode } from '../ui/qr.js';
import { ForwarderSetupSteps } from '../ui/forwarder-setup.js';

/**
 * Adding a phone (`/dashboard/devices/new`): createDevice, then its forwarder hook URL, shown once,
 * as text and as a QR code the SMS-forwarder app on the phone scans.
 */
const CreateDevice = graphql(`
  mutation DashboardCreateDevice($input: CreateDeviceInput!) {
    createDevice(input: $input) {
      hookUrl
      token
      device {
        id
        name
        hookSecretPrefix
      }
    }
  }
`);

export function DeviceNewPage() {
  useTitle('افزودن گوشی');
  const { isOwner } = useRole();
  const [state, create] = useMutation(CreateDevice);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const name = String(new FormData(e.currentTarget).get('name') ?? '').trim();
    if (!name) return setProblem('نامی برای گوشی بنویسید.');
    setProblem(null);
    void create({ input: { name } }, { additionalTypenames: ['Device', 'Merchant'] });
  };
  const made = state.data?.createDevice;
  return (
    <>
      <PageTitle>افزودن گوشی</PageTitle>
      <OwnerOnlyNote />
      {made ? (
        <Section title="گوشی ساخته شد">
          <div data-device-id={made.device.id} id="new-device">
            <p>
              گوشی «<Name>{made.device.name}</Name>» ساخته شد. برنامهٔ فرستندهٔ پیامک را روی همان گوشی باز کنید و این کد را با آن اسکن کنید (یا نشانی را کپی کنید). این نشانی فقط همین یک بار نشان داده
              می‌شود؛ اگر گمش کردید، از صفحهٔ گوشی‌ها «نشانی هوک تازه» بسازید.
            </p>
            <QrCode value={made.hookUrl} id="hook-qr" alt="کد نشانی هوک فرستندهٔ پیامک؛ آن را با برنامهٔ فرستنده روی گوشی اسکن کنید" />
            <p className="once">
              <strong>نشانی هوک</strong>
              <Data className="secret">{made.hookUrl}</Data>
              <CopyButton text={made.hookUrl} label="کپی نشانی" />
            </p>
            <ForwarderSetupSteps hookUrl={made.hookUrl} />
            <ol className="steps">
              <li>در برنامهٔ فرستنده، فرستادن پیامک‌های بانک را به همین نشانی روشن کنید.</li>
              <li>
                در <Link to={`${BASE}/cards/new`}>افزودن کارت</Link> کارتی بسازید که پیامک‌هایش به همین گوشی می‌آید و این گوشی را برایش انتخاب کنید.
              </li>
              <li>
                در <Link to={`${BASE}/devices`}>گوشی‌ها</Link> ببینید گوشی «آنلاین» شده است.
              </li>
            </ol>
          </div>
        </Section>
      ) : isOwner ? (
        <Section title="گوشی تازه">
          <form className="action" onSubmit={submit} noValidate>
            <label htmlFor="device-name">نام گوشی (برای شناختن آن در داشبورد)</label>
            <input id="device-name" name="name" maxLength={100} required aria-describedby="device-name-problem" />
            <FieldProblem error={state.error} name="name" id="device-name-problem" />
            <ErrorNote text={problem} />
            {!problem && <ErrorNote error={state.error} />}
            <button type="submit" disabled={state.fetching}>
              ساختن گوشی و نشانی هوک
            </button>
          </form>
        </Section>
      ) : null}
    </>
  );
}
