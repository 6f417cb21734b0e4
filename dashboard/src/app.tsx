import { Component, Suspense, useEffect, useRef, type ReactNode } from 'react';
import { isPagePath, PAGES, PaymentPage } from './lazy-pages.js';
import { LiveProvider } from './live.js';
import { useLocation } from './router.js';
import { ErrorNote, Loading } from './ui/common.js';
import { Shell } from './ui/shell.js';
import { LoginPage } from './pages/login.js';
import { NotFoundPage } from './pages/not-found.js';
import { SetPasswordPage } from './pages/set-password.js';

const PAYMENT_PATH = /^\/payments\/([0-9a-fA-F-]{36})$/;

function page(path: string): ReactNode {
  if (isPagePath(path)) {
    const Page = PAGES[path];
    return <Page />;
  }
  const payment = PAYMENT_PATH.exec(path);
  if (payment?.[1]) return <PaymentPage key={payment[1]} id={payment[1]} />;
  return <NotFoundPage />;
}

/**
 * A page's chunk that cannot be fetched (the network dropped, or a deployment replaced the app's
 * files since this tab loaded it) leaves the shell standing with a line and a reload, not a blank
 * page. Keyed by the path: going to another page tries again.
 */
class PageLoadBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <>
        <ErrorNote text="این صفحه بار نشد؛ شاید ارتباط قطع شده یا داشبورد به‌روز شده است." />
        <p className="buttons">
          <button type="button" onClick={() => window.location.reload()}>
            بارگذاری دوباره
          </button>
        </p>
      </>
    );
  }
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
  // The sign-in pages are in the first chunk: nothing else to fetch before the form shows.
  if (path === '/login') return <LoginPage />;
  if (path === '/set-password') return <SetPasswordPage />;
  return (
    <LiveProvider>
      <Shell>
        {/* The shell (header, navigation, live state) paints at once; the page's chunk follows. */}
        <PageLoadBoundary key={path}>
          <Suspense fallback={<Loading />}>{page(path)}</Suspense>
        </PageLoadBoundary>
      </Shell>
    </LiveProvider>
  );
}
