import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AlertCircle, Loader2 } from 'lucide-react';
import { useId, useState } from 'react';

import type { CreateUserInput, User } from '@wsc/api-client';
import { CreateUserInputSchema, isApiError } from '@wsc/api-client';

import { describeError } from '@/components/errors/error-message.ts';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { userKeys } from '@/queries/users.ts';

import { createUser } from '../api/users.ts';

type FormField = 'email' | 'firstName' | 'lastName' | 'jobTitle';
type Draft = Record<FormField, string>;
type Errors = Partial<Record<FormField, string>>;

const FIELDS: { name: FormField; label: string; required: boolean; type?: string }[] = [
  { name: 'email', label: 'Email', required: true, type: 'email' },
  { name: 'firstName', label: 'First name', required: true },
  { name: 'lastName', label: 'Last name', required: true },
  { name: 'jobTitle', label: 'Job title', required: false },
];
const FIELD_NAMES = new Set<string>(FIELDS.map((f) => f.name));

/**
 * Checks the form with the API's own input schema before sending, so obvious mistakes are shown
 * without a round trip; the server's 422 (a duplicate email) lands in the same places.
 *
 * @example
 * validateDraft({ email: 'x', firstName: '', lastName: 'L', jobTitle: '' }).errors.email; // 'Enter a valid email address'
 */
export function validateDraft(draft: Draft): { input?: CreateUserInput; errors: Errors } {
  const parsed = CreateUserInputSchema.safeParse({
    email: draft.email.trim(),
    firstName: draft.firstName,
    lastName: draft.lastName,
    jobTitle: draft.jobTitle.trim() || undefined,
  });
  if (parsed.success) return { input: parsed.data, errors: {} };
  const errors: Errors = {};
  for (const issue of parsed.error.issues) {
    const name = String(issue.path[0] ?? '') as FormField;
    if (!FIELD_NAMES.has(name) || errors[name]) continue;
    errors[name] =
      name === 'email'
        ? 'Enter a valid email address'
        : draft[name].trim() === ''
          ? 'Required'
          : 'Too long';
  }
  return { errors };
}

/**
 * The "New user" dialog: email, names and job title, with field-level errors from the client
 * check and from the API's 422 (a duplicate email, case-insensitive).
 */
export function CreateUserDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (user: User) => void;
}) {
  const queryClient = useQueryClient();
  const formId = useId();
  const [draft, setDraft] = useState<Draft>({
    email: '',
    firstName: '',
    lastName: '',
    jobTitle: '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const mutation = useMutation({
    mutationFn: createUser,
    onSuccess: async (user) => {
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
      onCreated(user);
    },
    onError: (error) => {
      if (!isApiError(error) || error.status !== 422) return;
      const next: Errors = {};
      for (const problem of error.errors) {
        if (FIELD_NAMES.has(problem.field)) next[problem.field as FormField] ??= problem.message;
      }
      setErrors(next);
    },
  });
  // What the 422 did not pin on a field, and every other failure, shows above the fields.
  const generalError =
    mutation.error &&
    !(isApiError(mutation.error) && mutation.error.status === 422 && Object.keys(errors).length > 0)
      ? describeError(mutation.error)
      : null;

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const { input, errors: found } = validateDraft(draft);
    setErrors(found);
    if (!input) {
      const first = FIELDS.find((f) => found[f.name]);
      if (first) document.getElementById(`${formId}-${first.name}`)?.focus();
      return;
    }
    mutation.mutate(input);
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>New user</DialogTitle>
          <DialogDescription>
            They can sign in once an administrator gives them credentials.
          </DialogDescription>
        </DialogHeader>
        <form id={formId} noValidate onSubmit={submit} className="grid gap-4">
          {generalError && (
            <Alert variant="destructive">
              <AlertCircle aria-hidden="true" />
              <AlertTitle>{generalError.title}</AlertTitle>
              <AlertDescription>{generalError.description}</AlertDescription>
            </Alert>
          )}
          {FIELDS.map((field) => {
            const id = `${formId}-${field.name}`;
            const error = errors[field.name];
            return (
              <div key={field.name} className="grid gap-1.5">
                <Label htmlFor={id}>
                  {field.label}
                  {field.required ? (
                    <span aria-hidden="true" className="text-destructive">
                      *
                    </span>
                  ) : (
                    <span className="text-muted-foreground font-normal">(optional)</span>
                  )}
                </Label>
                <Input
                  id={id}
                  type={field.type ?? 'text'}
                  autoComplete="off"
                  value={draft[field.name]}
                  aria-required={field.required || undefined}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-error` : undefined}
                  onChange={(event) => {
                    setDraft((d) => ({ ...d, [field.name]: event.target.value }));
                    if (error) setErrors((e) => ({ ...e, [field.name]: undefined }));
                  }}
                />
                {error && (
                  <p id={`${id}-error`} className="text-destructive text-sm">
                    {error}
                  </p>
                )}
              </div>
            );
          })}
        </form>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" form={formId} disabled={mutation.isPending}>
            {mutation.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
            Create user
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
