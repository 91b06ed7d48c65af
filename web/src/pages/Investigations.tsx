/** The investigations of the user's organization. */
import { client, unwrap } from '../api';
import { onLink } from '../router';
import { Loading, useLoad, when } from '../components/ui';

export const Investigations = () => {
  const list = useLoad(() => unwrap(client.GET('/api/investigations', { params: { query: { limit: 100 } } })), []);
  return (
    <main>
      <h1>Investigations</h1>
      <Loading state={list} label="investigations">
        {({ investigations }) =>
          investigations.length === 0 ? (
            <p>Your organization has no investigations yet.</p>
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
    </main>
  );
};
