/** The contracts of the sign-in routes (../contract.ts). */
import * as z from 'zod';
import { defineRoute } from '#core/contract';
import { ifUsed } from '#core/if-used';

const email = /* @__PURE__ */ ifUsed(() => z.email().max(254));
/** what the identity provider calls the user in a challenge (Cognito: its username); echoed back by the client */
const username = /* @__PURE__ */ ifUsed(() => z.string().min(1).max(256));
const session = /* @__PURE__ */ ifUsed(() => z.string().min(1).max(8192));

const signedIn = /* @__PURE__ */ ifUsed(() =>
  z.object({
    status: z.literal('signed_in'),
    access_token: z.string(),
    id_token: z.string(),
    refresh_token: z.string().optional(),
    expires_in: z.number().int(),
    token_type: z.literal('Bearer'),
  }),
);

const challenge = /* @__PURE__ */ ifUsed(() =>
  z.object({
    status: z.literal('challenge'),
    /**
     * totp: a code from the authenticator app; sms: a texted code; passkey: a WebAuthn assertion;
     * new_password: an invited user's first sign-in, replacing the temporary password (/api/auth/new-password);
     * mfa_setup: the pool requires MFA and the user has no authenticator yet: enrol secret_code, then /api/auth/mfa/setup
     */
    challenge: z.enum(['totp', 'sms', 'passkey', 'new_password', 'mfa_setup']),
    username,
    session,
    /** passkey only: PublicKeyCredentialRequestOptions (JSON) for navigator.credentials.get */
    credential_request_options: z.record(z.string(), z.unknown()).optional(),
    /** mfa_setup only: the base32 TOTP secret to add to an authenticator app */
    secret_code: z.string().optional(),
    /** mfa_setup only: the same secret as an otpauth:// key URI, for a QR code */
    otpauth_uri: z.string().optional(),
  }),
);

export const signInResponseSchema = /* @__PURE__ */ ifUsed(() => z.discriminatedUnion('status', [signedIn, challenge]));
export type SignInResponse = z.infer<typeof signInResponseSchema>;

/** A WebAuthn assertion as browsers serialise it (PublicKeyCredential.toJSON()). */
const b64url = /* @__PURE__ */ ifUsed(() =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]*$/, 'base64url')
    .max(16_384),
);
export const webauthnCredentialSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    id: b64url.min(1),
    rawId: b64url.min(1),
    type: z.literal('public-key'),
    response: z.object({
      clientDataJSON: b64url.min(1),
      authenticatorData: b64url.min(1),
      signature: b64url.min(1),
      userHandle: b64url.optional(),
    }),
    authenticatorAttachment: z.string().optional(),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  }),
);

const password = /* @__PURE__ */ ifUsed(() => z.string().min(1).max(256));

export const loginBodySchema = /* @__PURE__ */ ifUsed(() =>
  z
    .object({
      email,
      /** `passkey` starts a passkey sign-in: the answer is a passkey challenge for /api/auth/webauthn/authenticate/verify */
      method: z.enum(['password', 'passkey']).default('password'),
      password: password.optional(),
    })
    .strict()
    .refine((b) => b.method === 'passkey' || b.password !== undefined, { path: ['password'], message: 'Required for password sign-in' }),
);

export const mfaBodySchema = /* @__PURE__ */ ifUsed(() =>
  z
    .object({
      username,
      session,
      challenge: z.enum(['totp', 'sms']),
      code: z.string().regex(/^\d{6,8}$/, 'a 6 to 8 digit code'),
    })
    .strict(),
);

/** the first code of the authenticator enrolled at the mfa_setup challenge (Cognito's TOTP codes have 6 digits) */
export const mfaSetupBodySchema = /* @__PURE__ */ ifUsed(() =>
  z.object({ username, session, code: z.string().regex(/^\d{6}$/, 'a 6 digit code') }).strict(),
);

export const webauthnBodySchema = /* @__PURE__ */ ifUsed(() =>
  z.object({ username, session, credential: webauthnCredentialSchema }).strict(),
);

/** the policy itself is the identity provider's (a breach is a 400 naming it), so only the length is checked here */
export const newPasswordBodySchema = /* @__PURE__ */ ifUsed(() => z.object({ username, session, new_password: password }).strict());

export const forgotPasswordBodySchema = /* @__PURE__ */ ifUsed(() =>
  z
    .object({
      email,
      /** with `code` and `new_password`: the second step, setting the new password */
      code: z
        .string()
        .regex(/^\d{4,8}$/, 'the code from the reset message')
        .optional(),
      new_password: password.optional(),
    })
    .strict()
    .refine((b) => (b.code === undefined) === (b.new_password === undefined), {
      path: ['new_password'],
      message: 'code and new_password go together',
    }),
);

export const authLoginRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/auth/login',
    errors: {
      401: 'Wrong email or password (one message for both)',
      409: 'A sign-in step this API does not offer (e.g. CUSTOM_CHALLENGE)',
      503: 'The identity provider is unavailable',
    },
    body: loginBodySchema,
    response: signInResponseSchema,
  }),
);

export const authMfaVerifyRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/auth/mfa/verify',
    errors: { 401: 'Wrong or expired code', 503: 'The identity provider is unavailable' },
    body: mfaBodySchema,
    response: signInResponseSchema,
  }),
);

export const authMfaSetupRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/auth/mfa/setup',
    errors: {
      401: "Wrong code, or the session is expired, spent or not this user's (sign in again)",
      409: 'A next step this API does not offer',
      503: 'The identity provider is unavailable',
    },
    body: mfaSetupBodySchema,
    response: signInResponseSchema,
  }),
);

export const authWebauthnVerifyRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/auth/webauthn/authenticate/verify',
    errors: { 401: 'The passkey assertion did not verify', 503: 'The identity provider is unavailable' },
    body: webauthnBodySchema,
    response: signInResponseSchema,
  }),
);

export const authNewPasswordRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/auth/new-password',
    errors: {
      400: 'The new password breaks the password policy (sign in again with the temporary password)',
      401: "The session is expired, spent or not this user's",
      409: 'A next step this API does not offer (e.g. CUSTOM_CHALLENGE)',
      503: 'The identity provider is unavailable',
    },
    body: newPasswordBodySchema,
    response: signInResponseSchema,
  }),
);

export const authForgotPasswordRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/auth/forgot-password',
    errors: { 202: 'A reset code was sent (status code_sent); the 200 answers the step that sets the new password' },
    body: forgotPasswordBodySchema,
    response: z.object({ status: z.enum(['code_sent', 'password_reset']), message: z.string() }),
  }),
);
