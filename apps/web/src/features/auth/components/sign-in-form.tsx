import { useMutation, useQuery } from '@tanstack/react-query';
import { AlertCircle, Loader2 } from 'lucide-react';
import { useId, useState } from 'react';

import { isApiError } from '@wsc/api-client';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';

import type { LoginInput, LoginResult } from '../api/session.ts';
import { bffConfigQueryOptions, login, LoginInputSchema } from '../api/session.ts';

/**
 * Turns a failed sign-in into one plain sentence.
 *
 * @example
 * signInErrorMessage(new ApiError({ status: 401, code: 'unauthorized' })); // 'The client ID or…'
 */
export function signInErrorMessage(error: unknown): string {
  if (isApiError(error)) {
    if (error.status === 401 || error.status === 400) {
      return 'The client ID or client secret is not correct for this region.';
    }
    if (error.status === 429) {
      return error.retryAfter !== undefined
        ? `Too many sign-in attempts. Try again in ${error.retryAfter} s.`
        : 'Too many sign-in attempts. Try again shortly.';
    }
    if (error.status === 0) return 'The console could not reach the server. Check your connection.';
  }
  return 'Sign-in failed because the service had a problem. Try again in a moment.';
}

type FieldErrors = Partial<Record<keyof LoginInput, string>>;

/**
 * Password-manager friendly sign-in: real form, `username`/`current-password` autocomplete.
 * Where the region's service cannot say who a client id belongs to (the hosted API, with no
 * identities file at the BFF), an optional email is asked for: it names the person in the console
 * and is marked unverified; it decides nothing.
 */
export function SignInForm({
  next,
  onSignedIn,
}: {
  /** The console page signing in leads to: the BFF reads a records list's first rows with it. */
  next?: string | undefined;
  onSignedIn: (result: LoginResult) => void;
}) {
  const config = useQuery(bffConfigQueryOptions());
  const regions = config.data?.regions ?? [{ id: 'default', label: 'Default' }];
  const [regionId, setRegionId] = useState<string | undefined>(undefined);
  const region = regions.find((r) => r.id === regionId) ?? regions[0];
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const ids = {
    clientId: useId(),
    secret: useId(),
    region: useId(),
    email: useId(),
    error: useId(),
  };
  const mutation = useMutation({ mutationFn: login, onSuccess: (result) => onSignedIn(result) });

  function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const email = data.get('email');
    const parsed = LoginInputSchema.safeParse({
      clientId: data.get('clientId'),
      clientSecret: data.get('clientSecret'),
      region: data.get('region') ?? regions[0]?.id,
      ...(typeof email === 'string' && email.trim() !== '' ? { email } : {}),
    });
    if (!parsed.success) {
      const errors: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof LoginInput;
        errors[key] ??= issue.message;
      }
      setFieldErrors(errors);
      return;
    }
    setFieldErrors({});
    mutation.mutate({ ...parsed.data, ...(next ? { next } : {}) });
  }

  return (
    <form
      method="post"
      action="/bff/login"
      onSubmit={handleSubmit}
      noValidate
      className="grid gap-5"
      aria-describedby={mutation.isError ? ids.error : undefined}
    >
      {mutation.isError && (
        <Alert variant="destructive" id={ids.error}>
          <AlertCircle aria-hidden="true" />
          <AlertTitle>Could not sign in</AlertTitle>
          <AlertDescription>{signInErrorMessage(mutation.error)}</AlertDescription>
        </Alert>
      )}
      <div className="grid gap-2">
        <Label htmlFor={ids.clientId}>Client ID</Label>
        <Input
          id={ids.clientId}
          name="clientId"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          aria-required="true"
          aria-invalid={fieldErrors.clientId ? true : undefined}
          aria-describedby={fieldErrors.clientId ? `${ids.clientId}-error` : undefined}
        />
        {fieldErrors.clientId && (
          <p id={`${ids.clientId}-error`} className="text-destructive text-sm">
            {fieldErrors.clientId}
          </p>
        )}
      </div>
      <div className="grid gap-2">
        <Label htmlFor={ids.secret}>Client secret</Label>
        <Input
          id={ids.secret}
          name="clientSecret"
          type="password"
          autoComplete="current-password"
          required
          aria-required="true"
          aria-invalid={fieldErrors.clientSecret ? true : undefined}
          aria-describedby={fieldErrors.clientSecret ? `${ids.secret}-error` : undefined}
        />
        {fieldErrors.clientSecret && (
          <p id={`${ids.secret}-error`} className="text-destructive text-sm">
            {fieldErrors.clientSecret}
          </p>
        )}
      </div>
      <div className="grid gap-2">
        <Label htmlFor={ids.region}>Region</Label>
        <NativeSelect
          id={ids.region}
          name="region"
          value={region?.id}
          onChange={(event) => setRegionId(event.target.value)}
        >
          {regions.map((option) => (
            <option key={option.id} value={option.id}>
              {option.label}
            </option>
          ))}
        </NativeSelect>
      </div>
      {region?.askEmail && (
        <div className="grid gap-2">
          <Label htmlFor={ids.email}>
            Your email <span className="text-muted-foreground font-normal">(optional)</span>
          </Label>
          <Input
            id={ids.email}
            name="email"
            type="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            aria-invalid={fieldErrors.email ? true : undefined}
            aria-describedby={`${ids.email}-hint${fieldErrors.email ? ` ${ids.email}-error` : ''}`}
          />
          <p id={`${ids.email}-hint`} className="text-muted-foreground text-xs">
            This service does not say who a client ID belongs to. Your email only names you in the
            console (marked unverified); it grants nothing.
          </p>
          {fieldErrors.email && (
            <p id={`${ids.email}-error`} className="text-destructive text-sm">
              {fieldErrors.email}
            </p>
          )}
        </div>
      )}
      <Button type="submit" size="lg" disabled={mutation.isPending} className="w-full">
        {mutation.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
        {mutation.isPending ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
