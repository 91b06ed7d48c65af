/** The investigations of the user's organization, and a new one (landing on it). */
import { useState } from 'preact/hooks';
import { client, unwrap } from '../api';
import { navigate, onLink } from '../router';
import { Loading, Problem, useAction, useLoad, when, withDetails } from '../components/ui';

const FIELD_NAMES: Record<string, string> = { title: 'Title', description: 'Description' };

const NewInvestigation = () => {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const { working, problem, run } = useAction((error) => withDetails(error, (path) => FIELD_NAMES[path] ?? path));
  const create = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const created = await unwrap(client.POST('/api/investigations', { body: { title, ...(description.trim() && { description }) } }));
      navigate(`/investigations/${created.investigation_id}`);
    });
  };
  return (
    <section aria-labelledby="new-investigation-heading" class="panel">
      <h2 id="new-investigation-heading">New investigation</h2>
      <form onSubmit={create}>
        <label for="investigation-title">Title</label>
        <input id="investigation-title" required maxLength={300} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
        <label for="investigation-description">Description (optional)</label>
        <textarea
          id="investigation-description"
          maxLength={10000}
          value={description}
          onInput={(e) => setDescription(e.currentTarget.value)}
        />
        <div class="actions">
          <button type="submit" disabled={working}>
            Create investigation
          </button>
        </div>
      </form>
      <Problem message={problem} />
    </section>
  );
};

export const Investigations = () => {
  const list = useLoad(() => unwrap(client.GET('/api/investigations', { params: { query: { limit: 100 } } })), []);
  return (
    <main>
      <h1>Investigations</h1>
      <div class="columns wide-first">
        <Loading state={list} label="investigations">
          {({ investigations }) =>
            investigations.length === 0 ? (
              <p>Your organization has no investigations yet: create the first one.</p>
            ) : (
              <ul class="cards">
                {investigations.map((i) => (
                  <li key={i.investigation_id}>
                    <a href={`/investigations/${i.investigation_id}`} onClick={onLink}>
                      <strong>{i.title}</strong>
                    </a>
                    <p>{i.description}</p>
                    <p class="meta">
                      {i.evidence_count} evidence items · {i.background_document_count} background documents · opened {when(i.created_at)}
                    </p>
                  </li>
                ))}
              </ul>
            )
          }
        </Loading>
        <NewInvestigation />
      </div>
    </main>
  );
};
