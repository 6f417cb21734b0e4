import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'urql';
import { App } from './app.js';
import { createClient } from './client.js';
import { BASE, loginHref, navigate } from './router.js';
import { UnitProvider } from './unit.js';
import './styles.css';

// A request without a session (none yet, expired, logged out elsewhere) goes to the login page,
// which brings the user back here afterwards.
const client = createClient(() => {
  if (!window.location.pathname.startsWith(`${BASE}/login`)) navigate(loginHref(), { replace: true });
});

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Provider value={client}>
        <UnitProvider>
          <App />
        </UnitProvider>
      </Provider>
    </StrictMode>,
  );
}
