import { useEffect, useRef, type ReactNode } from 'react';
import { LiveProvider } from './live.js';
import { useLocation } from './router.js';
import { Shell } from './ui/shell.js';
import { AuditPage } from './pages/audit.js';
import { CardsPage } from './pages/cards.js';
import { CreditPage } from './pages/credit.js';
import { DevicesPage } from './pages/devices.js';
import { ExportsPage } from './pages/exports.js';
import { LinksPage } from './pages/links.js';
import { LoginPage } from './pages/login.js';
import { NotFoundPage } from './pages/not-found.js';
import { OverviewPage } from './pages/overview.js';
import { PaymentPage } from './pages/payment.js';
import { PaymentsPage } from './pages/payments.js';
import { ProjectsPage } from './pages/projects.js';
import { ReviewPage } from './pages/review.js';
import { SetPasswordPage } from './pages/set-password.js';
import { UsersPage } from './pages/users.js';
import { WebhooksPage } from './pages/webhooks.js';

const PAGES: Record<string, () => ReactNode> = {
  '/': () => <OverviewPage />,
  '/payments': () => <PaymentsPage />,
  '/review': () => <ReviewPage />,
  '/devices': () => <DevicesPage />,
  '/cards': () => <CardsPage />,
  '/webhooks': () => <WebhooksPage />,
  '/links': () => <LinksPage />,
  '/projects': () => <ProjectsPage />,
  '/credit': () => <CreditPage />,
  '/users': () => <UsersPage />,
  '/audit': () => <AuditPage />,
  '/exports': () => <ExportsPage />,
};

const PAYMENT_PATH = /^\/payments\/([0-9a-fA-F-]{36})$/;

function page(path: string): ReactNode {
  const render = PAGES[path];
  if (render) return render();
  const payment = PAYMENT_PATH.exec(path);
  if (payment?.[1]) return <PaymentPage key={payment[1]} id={payment[1]} />;
  return <NotFoundPage />;
}

/** After a navigation inside the app, focus moves to the new page's content (screen readers hear it). */
function useFocusOnNavigate(path: string) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById('main')?.focus();
  }, [path]);
}

export function App() {
  const { path } = useLocation();
  useFocusOnNavigate(path);
  if (path === '/login') return <LoginPage />;
  if (path === '/set-password') return <SetPasswordPage />;
  return (
    <LiveProvider>
      <Shell>{page(path)}</Shell>
    </LiveProvider>
  );
}
