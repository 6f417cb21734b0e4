import { BASE, Link, useTitle } from '../router.js';
import { PageTitle } from '../ui/common.js';

export function NotFoundPage() {
  useTitle('پیدا نشد');
  return (
    <>
      <PageTitle>این صفحه پیدا نشد</PageTitle>
      <p>
        <Link to={BASE}>بازگشت به نمای کلی</Link>
      </p>
    </>
  );
}
