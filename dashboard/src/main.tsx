import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'urql';
import { App } from './app.js';
import { createClient } from './client.js';
import { preloadPage } from './lazy-pages.js';
import { BASE, loginHref, navigate, preloadPagesWith, splitMode } from './router.js';
import { UnitProvider } from './unit.js';
import './styles.css';

// A request without a session (none yet, expired, logged out elsewhere) goes to the login page,
// which brings the user back here afterwards.
const client = createClient(() => {
  if (!window.location.pathname.startsWith(`${BASE}/login`)) navigate(loginHref(), { replace: true });
});

// Links fetch their page's chunk ahead; this page's is fetched now, beside React's start-up, not
// once the shell has rendered.
preloadPagesWith(preloadPage);
preloadPage(splitMode(window.location.pathname.slice(BASE.length)).path);

const root = document.getElementById('root');
if (root) {
  // The first render as a transition: React renders it in slices (the page's "loading" line stays
  // on screen meanwhile) instead of one long task on a slow phone.
  const reactRoot = createRoot(root);
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <Provider value={client}>
          <UnitProvider>
            <App />
          </UnitProvider>
        </Provider>
      </StrictMode>,
    );
  });
}
