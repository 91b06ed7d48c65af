/** The reference web app: investigators' screens over the typed API client. */
import { render, type FunctionComponent } from 'preact';
import { loadConfig } from './api';
import { match, onLink, path } from './router';
import { session, signOut } from './session';
import { useSignal } from './signal';
import { AnalysisPage } from './pages/Analysis';
import { Investigation } from './pages/Investigation';
import { Investigations } from './pages/Investigations';
import { MetricsPage } from './pages/Metrics';
import { AuditHealth, Jobs, QueueStats, Users } from './pages/Operations';
import { PromptTypePage, PromptTypes, PromptVersionPage } from './pages/Prompts';
import { SignIn } from './pages/SignIn';
import './styles.css';

const ADMIN_SCREENS: Record<string, FunctionComponent> = {
  '/admin': PromptTypes,
  '/admin/queue': QueueStats,
  '/admin/audit-health': AuditHealth,
  '/admin/users': Users,
  '/admin/jobs': Jobs,
};

const Screen = ({ pathname, admin }: { pathname: string; admin: boolean }) => {
  const home = pathname === '/' || pathname === '/sign-in';
  // an administrator belongs to no organization (the investigations answer 403): its home is the admin area
  if (admin && home) return <PromptTypes />;
  const AdminScreen = ADMIN_SCREENS[pathname.replace(/(.)\/$/, '$1')];
  if (AdminScreen) return <AdminScreen />;
  let params = match('/admin/prompts/:type', pathname);
  if (params) return <PromptTypePage key={params.type} type={params.type!} />;
  params = match('/admin/prompts/:type/versions/:version', pathname);
  if (params) return <PromptVersionPage key={pathname} type={params.type!} version={params.version!} />;
  params = match('/investigations/:id/metrics', pathname);
  if (params) return <MetricsPage key={params.id} id={params.id!} />;
  params = match('/investigations/:id', pathname);
  if (params) return <Investigation key={params.id} id={params.id!} />;
  params = match('/analyses/:id', pathname);
  if (params) return <AnalysisPage key={params.id} id={params.id!} />;
  if (home) return <Investigations />;
  return (
    <main>
      <h1>Not found</h1>
      <p>
        There is no such page.{' '}
        <a href="/" onClick={onLink}>
          Go to the start
        </a>
        .
      </p>
    </main>
  );
};

const App = () => {
  const current = useSignal(session);
  const pathname = useSignal(path);
  return (
    <>
      <header class="top">
        <a href="/" onClick={onLink} class="brand">
          Investigation Analysis
        </a>
        {current && (
          <nav aria-label="Account">
            {current.admin && (
              <a href="/admin" onClick={onLink}>
                Administration
              </a>
            )}
            <span class="meta">{current.email}</span>
            <button type="button" class="link" onClick={signOut}>
              Sign out
            </button>
          </nav>
        )}
      </header>
      {current ? <Screen pathname={pathname} admin={current.admin} /> : <SignIn />}
    </>
  );
};

await loadConfig();
render(<App />, document.getElementById('app')!);
