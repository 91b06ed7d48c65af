/** The reference web app: investigators' screens over the typed API client. */
import { render } from 'preact';
import { loadConfig } from './api';
import { match, onLink, path } from './router';
import { session, signOut } from './session';
import { useSignal } from './signal';
import { AnalysisPage } from './pages/Analysis';
import { Investigation } from './pages/Investigation';
import { Investigations } from './pages/Investigations';
import { SignIn } from './pages/SignIn';
import './styles.css';

const Screen = ({ pathname }: { pathname: string }) => {
  let params = match('/investigations/:id', pathname);
  if (params) return <Investigation key={params.id} id={params.id!} />;
  params = match('/analyses/:id', pathname);
  if (params) return <AnalysisPage key={params.id} id={params.id!} />;
  if (pathname === '/' || pathname === '/sign-in') return <Investigations />;
  return (
    <main>
      <h1>Not found</h1>
      <p>
        There is no such page.{' '}
        <a href="/" onClick={onLink}>
          Go to the investigations
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
            <span class="meta">{current.email}</span>
            <button type="button" class="link" onClick={signOut}>
              Sign out
            </button>
          </nav>
        )}
      </header>
      {current ? <Screen pathname={pathname} /> : <SignIn />}
    </>
  );
};

await loadConfig();
render(<App />, document.getElementById('app')!);
