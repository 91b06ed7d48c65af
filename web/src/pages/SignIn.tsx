/**
 * Sign-in through the API's /api/auth/* proxies: password, then whatever challenge the identity provider
 * asks for (an MFA code, an authenticator to set up, a new password, a passkey). A passkey is offered where
 * the browser has WebAuthn. A forgotten password is reset here too: a code by e-mail, then the new password.
 * A challenge's session is used once whatever the answer (Cognito's rule): after a wrong code the page signs in
 * again behind the scenes, so the next code is tried on a fresh session instead of failing until "Start again".
 */
import { useState } from 'preact/hooks';
import { client, unwrap } from '../api';
import { navigate } from '../router';
import { signIn } from '../session';
import type { components } from '../../api/schema';
import { Problem, useAction } from '../components/ui';

type SignInResult = components['schemas']['SignInResult'];
type Challenge = Extract<SignInResult, { status: 'challenge' }>;

const fromBase64Url = (value: string): ArrayBuffer => {
  const bytes = Uint8Array.from(atob(value.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  return bytes.buffer;
};
const toBase64Url = (buffer: ArrayBuffer): string =>
  btoa(String.fromCharCode(...new Uint8Array(buffer)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** The browser's assertion for the server's request options (simplewebauthn's JSON form). */
const passkeyAssertion = async (options: Record<string, unknown>) => {
  const allow = (options.allowCredentials as { id: string; type: 'public-key'; transports?: AuthenticatorTransport[] }[] | undefined) ?? [];
  const credential = (await navigator.credentials.get({
    publicKey: {
      challenge: fromBase64Url(String(options.challenge)),
      rpId: options.rpId as string | undefined,
      timeout: options.timeout as number | undefined,
      userVerification: (options.userVerification as UserVerificationRequirement | undefined) ?? 'preferred',
      allowCredentials: allow.map((c) => ({ ...c, id: fromBase64Url(c.id) })),
    },
  })) as PublicKeyCredential | null;
  if (!credential) throw new Error('No passkey was chosen.');
  const response = credential.response as AuthenticatorAssertionResponse;
  return {
    id: credential.id,
    rawId: toBase64Url(credential.rawId),
    type: 'public-key' as const,
    response: {
      clientDataJSON: toBase64Url(response.clientDataJSON),
      authenticatorData: toBase64Url(response.authenticatorData),
      signature: toBase64Url(response.signature),
      ...(response.userHandle && { userHandle: toBase64Url(response.userHandle) }),
    },
    clientExtensionResults: credential.getClientExtensionResults() as Record<string, unknown>,
  };
};

/** A one-time code's field (MFA, reset): digits only, filled from the phone's suggestion where it offers one. */
const CodeInput = ({
  label,
  digits,
  value,
  onInput,
}: {
  label: string;
  digits: string;
  value: string;
  onInput: (code: string) => void;
}) => (
  <label>
    {label}
    <input
      inputMode="numeric"
      autocomplete="one-time-code"
      pattern={`[0-9]{${digits}}`}
      required
      value={value}
      onInput={(e) => onInput(e.currentTarget.value)}
    />
  </label>
);

/** A new password's field (a reset, or the first sign-in of an invited user): the browser may suggest a strong one. */
const NewPasswordInput = ({ label, value, onInput }: { label: string; value: string; onInput: (password: string) => void }) => (
  <label>
    {label}
    <input type="password" autocomplete="new-password" required value={value} onInput={(e) => onInput(e.currentTarget.value)} />
  </label>
);

export const SignIn = () => {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [challenge, setChallenge] = useState<Challenge>();
  const [resetting, setResetting] = useState<'ask' | 'confirm'>();
  const [said, setSaid] = useState<string>();
  const { working, problem, run: act } = useAction();
  const passkeys = typeof window.PublicKeyCredential === 'function';

  const settle = async (result: SignInResult) => {
    if (result.status === 'signed_in') {
      signIn(result);
      navigate(window.location.pathname === '/sign-in' ? '/' : window.location.pathname);
      return;
    }
    setCode('');
    if (result.challenge === 'passkey' && result.credential_request_options) {
      const credential = await passkeyAssertion(result.credential_request_options);
      await settle(
        await unwrap(
          client.POST('/api/auth/webauthn/authenticate/verify', {
            body: { username: result.username, session: result.session, credential },
          }),
        ),
      );
      return;
    }
    setChallenge(result);
  };

  const run = (step: () => Promise<SignInResult>) => (event: Event) => {
    event.preventDefault();
    void act(async () => settle(await step()));
  };

  const withPassword = run(() => unwrap(client.POST('/api/auth/login', { body: { email, method: 'password', password } })));
  const withPasskey = run(() => unwrap(client.POST('/api/auth/login', { body: { email, method: 'passkey' } })));
  /** A code refused: a fresh session for the next one (signed in again with the password given), then the refusal. */
  const verifyCode = async (c: Challenge & { challenge: 'totp' | 'sms' }) => {
    try {
      return await unwrap(
        client.POST('/api/auth/mfa/verify', { body: { username: c.username, session: c.session, challenge: c.challenge, code } }),
      );
    } catch (error) {
      setCode('');
      const again = password
        ? await unwrap(client.POST('/api/auth/login', { body: { email, method: 'password', password } })).catch(() => undefined)
        : undefined;
      if (again?.status === 'challenge' && again.challenge === c.challenge) setChallenge(again);
      throw error;
    }
  };
  const answer = run(() => {
    const c = challenge!;
    if (c.challenge === 'totp' || c.challenge === 'sms') return verifyCode({ ...c, challenge: c.challenge });
    if (c.challenge === 'mfa_setup')
      return unwrap(client.POST('/api/auth/mfa/setup', { body: { username: c.username, session: c.session, code } }));
    return unwrap(client.POST('/api/auth/new-password', { body: { username: c.username, session: c.session, new_password: newPassword } }));
  });

  const askReset = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      const answer = await unwrap(client.POST('/api/auth/forgot-password', { body: { email } }));
      setSaid(answer.message);
      setResetting('confirm');
    });
  };
  const confirmReset = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      const answer = await unwrap(client.POST('/api/auth/forgot-password', { body: { email, code, new_password: newPassword } }));
      setSaid(answer.message);
      setResetting(undefined);
      setCode('');
      setPassword('');
      setNewPassword('');
    });
  };
  const leaveReset = () => {
    setResetting(undefined);
    setSaid(undefined);
  };

  // keyed apart: Preact would otherwise reuse the reset form's inputs, with their attributes, for the sign-in form's
  if (resetting)
    return (
      <main class="narrow" key="reset">
        <h1>Reset your password</h1>
        {said && (
          <p class="note" role="status">
            {said}
          </p>
        )}
        {resetting === 'ask' ? (
          <form onSubmit={askReset}>
            <label>
              Email
              <input type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
            </label>
            <div class="actions">
              <button type="submit" disabled={working}>
                Send me a reset code
              </button>
              <button type="button" class="secondary" onClick={leaveReset}>
                Back to sign-in
              </button>
            </div>
          </form>
        ) : (
          <form onSubmit={confirmReset}>
            <CodeInput label="The code from the e-mail" digits="4,8" value={code} onInput={setCode} />
            <NewPasswordInput label="New password" value={newPassword} onInput={setNewPassword} />
            <div class="actions">
              <button type="submit" disabled={working}>
                Set the new password
              </button>
              <button type="button" class="secondary" onClick={() => setResetting('ask')}>
                Send another code
              </button>
            </div>
          </form>
        )}
        <Problem message={problem} />
      </main>
    );

  return (
    <main class="narrow" key="sign-in">
      <h1>Sign in</h1>
      {said && (
        <p class="note" role="status">
          {said}
        </p>
      )}
      {!challenge ? (
        <form onSubmit={withPassword}>
          <label>
            Email
            <input type="email" autocomplete="username webauthn" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          </label>
          <label>
            Password
            <input type="password" autocomplete="current-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
          </label>
          <div class="actions">
            <button type="submit" disabled={working || !password}>
              Sign in
            </button>
            {passkeys && (
              <button type="button" class="secondary" disabled={working || !email} onClick={withPasskey}>
                Sign in with a passkey
              </button>
            )}
          </div>
          <p>
            <button
              type="button"
              class="link"
              onClick={() => {
                setSaid(undefined);
                setResetting('ask');
              }}
            >
              Forgot your password?
            </button>
          </p>
        </form>
      ) : (
        <form onSubmit={answer}>
          {challenge.challenge === 'new_password' ? (
            <NewPasswordInput label="Choose a new password" value={newPassword} onInput={setNewPassword} />
          ) : (
            <>
              {challenge.challenge === 'mfa_setup' && (
                <p>
                  Add this key to your authenticator app, then enter the code it shows: <code>{challenge.secret_code}</code>
                </p>
              )}
              <CodeInput
                label={challenge.challenge === 'sms' ? 'The code we sent by text message' : 'The code from your authenticator app'}
                digits="6"
                value={code}
                onInput={setCode}
              />
            </>
          )}
          <div class="actions">
            <button type="submit" disabled={working}>
              Continue
            </button>
            <button type="button" class="secondary" onClick={() => setChallenge(undefined)}>
              Start again
            </button>
          </div>
        </form>
      )}
      <Problem message={problem} />
    </main>
  );
};
