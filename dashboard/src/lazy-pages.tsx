import { lazy, type ComponentType } from 'react';

/**
 * The signed-in pages, each its own chunk (React.lazy): the first load of any page fetches the
 * shell and that page only, and parses that page's GraphQL documents only. A navigation link
 * starts fetching its page when the pointer or the focus reaches it, so the chunk is usually there
 * by the click. Chunks have hashed names (cached a year); a missing one after a deployment is a
 * 404 (never HTML), shown by the app's PageLoadBoundary with a reload that picks up the new names.
 */
type Loader = () => Promise<ComponentType>;

const page =
  <M,>(load: () => Promise<M>, pick: (m: M) => ComponentType): Loader =>
  () =>
    load().then(pick);

const LOADERS = {
  '/': page(() => import('./pages/overview.js'), (m) => m.OverviewPage),
  '/payments': page(() => import('./pages/payments.js'), (m) => m.PaymentsPage),
  '/review': page(() => import('./pages/review.js'), (m) => m.ReviewPage),
  '/devices': page(() => import('./pages/devices.js'), (m) => m.DevicesPage),
  '/devices/new': page(() => import('./pages/device-new.js'), (m) => m.DeviceNewPage),
  '/cards': page(() => import('./pages/cards.js'), (m) => m.CardsPage),
  '/cards/new': page(() => import('./pages/card-new.js'), (m) => m.CardNewPage),
  '/webhooks': page(() => import('./pages/webhooks.js'), (m) => m.WebhooksPage),
  '/links': page(() => import('./pages/links.js'), (m) => m.LinksPage),
  '/projects': page(() => import('./pages/projects.js'), (m) => m.ProjectsPage),
  '/credit': page(() => import('./pages/credit.js'), (m) => m.CreditPage),
  '/users': page(() => import('./pages/users.js'), (m) => m.UsersPage),
  '/security': page(() => import('./pages/security.js'), (m) => m.SecurityPage),
  '/audit': page(() => import('./pages/audit.js'), (m) => m.AuditPage),
  '/exports': page(() => import('./pages/exports.js'), (m) => m.ExportsPage),
  '/chat': page(() => import('./pages/chat.js'), (m) => m.ChatPage),
} satisfies Record<string, Loader>;

const loadPayment = () => import('./pages/payment.js');

export type PagePath = keyof typeof LOADERS;

export const PAGES = {} as Record<PagePath, ComponentType>;
for (const path of Object.keys(LOADERS) as PagePath[]) {
  PAGES[path] = lazy(() => LOADERS[path]().then((Component) => ({ default: Component })));
}

export const PaymentPage = lazy(() => loadPayment().then((m) => ({ default: m.PaymentPage })));

export function isPagePath(path: string): path is PagePath {
  return Object.hasOwn(LOADERS, path);
}

/** Starts fetching a page's chunk (a path below /dashboard); errors wait for the real load. */
export function preloadPage(path: string): void {
  const load = isPagePath(path) ? LOADERS[path] : /^\/payments\/[0-9a-fA-F-]{36}$/.test(path) ? loadPayment : null;
  load?.().catch(() => {});
}
