import { useMutation, useQuery } from '@tanstack/react-query';
import { AlertCircle, Loader2 } from 'lucide-react';
import { useId, useState } from 'react';

import { isApiError } from '@wsc/api-client';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';

import type { LoginInput } from '../api/session.ts';
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

/** Password-manager friendly sign-in: real form, `username`/`current-password` autocomplete. */
export function SignInForm({ onSignedIn }: { onSignedIn: () => void | Promise<void> }) {
  const config = useQuery(bffConfigQueryOptions());
  const regions = config.data?.regions ?? [{ id: 'default', label: 'Default' }];
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const ids = { clientId: useId(), secret: useId(), region: useId(), error: useId() };
  const mutation = useMutation({ mutationFn: login, onSuccess: () => onSignedIn() });

  function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const parsed = LoginInputSchema.safeParse({
      clientId: data.get('clientId'),
      clientSecret: data.get('clientSecret'),
      region: data.get('region') ?? regions[0]?.id,
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
    mutation.mutate(parsed.data);
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
        <NativeSelect id={ids.region} name="region" defaultValue={regions[0]?.id}>
          {regions.map((region) => (
            <option key={region.id} value={region.id}>
              {region.label}
            </option>
          ))}
        </NativeSelect>
      </div>
      <Button type="submit" size="lg" disabled={mutation.isPending} className="w-full">
        {mutation.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
        {mutation.isPending ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
