import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { capabilitiesFor, SignInFirstPageSchema } from '@wsc/api-client';

import { jsonResponse, renderWithQuery } from '@/testing/render.tsx';

import { SignInForm } from './sign-in-form.tsx';

const config = {
  regions: [
    { id: 'default', label: 'US (default)' },
    { id: 'eu', label: 'EU' },
  ],
  maxUploadBytes: 1,
};

function mockBff(login: () => Response) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    if (url === '/bff/config') return jsonResponse(config);
    if (url === '/bff/login') return login();
    throw new Error(`unexpected ${url}`);
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('SignInForm', () => {
  it('is a password-manager friendly form that posts the credentials with X-CSRF', async () => {
    const fetchMock = mockBff(() =>
      jsonResponse({
        user: {
          id: '00000000-0000-4000-8000-000000000001',
          email: 'a@x.io',
          firstName: 'A',
          lastName: 'B',
          clientId: 'cid',
          role: 'ADMIN',
          identity: 'api',
        },
        region: 'eu',
        expiresAt: '2030-01-01T00:00:00.000Z',
        capabilities: capabilitiesFor('extended'),
      }),
    );
    const onSignedIn = vi.fn();
    const { user } = renderWithQuery(<SignInForm onSignedIn={onSignedIn} />);
    expect(screen.getByLabelText('Client ID')).toHaveAttribute('autocomplete', 'username');
    expect(screen.getByLabelText('Client secret')).toHaveAttribute(
      'autocomplete',
      'current-password',
    );
    expect(screen.getByLabelText('Client secret')).toHaveAttribute('type', 'password');
    await screen.findByRole('option', { name: 'EU' });
    await user.type(screen.getByLabelText('Client ID'), 'cid');
    await user.type(screen.getByLabelText('Client secret'), 's3cret');
    await user.selectOptions(screen.getByLabelText('Region'), 'eu');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    // The reply is the session: the page goes on with it rather than asking for it again.
    await vi.waitFor(() =>
      expect(onSignedIn).toHaveBeenCalledWith(
        expect.objectContaining({ region: 'eu', expiresAt: '2030-01-01T00:00:00.000Z' }),
      ),
    );
    const call = fetchMock.mock.calls.find(([url]) => url === '/bff/login');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      clientId: 'cid',
      clientSecret: 's3cret',
      region: 'eu',
    });
    expect(new Headers(call?.[1]?.headers).get('X-CSRF')).toBe('1');
  });

  it('says plainly when the credentials are wrong', async () => {
    mockBff(() => jsonResponse({ type: 'about:blank', title: 'Unauthorized', status: 401 }, 401));
    const { user } = renderWithQuery(<SignInForm onSignedIn={() => undefined} />);
    await user.type(screen.getByLabelText('Client ID'), 'cid');
    await user.type(screen.getByLabelText('Client secret'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The client ID or client secret is not correct',
    );
  });

  it('shows the wait from Retry-After when rate limited', async () => {
    mockBff(() =>
      jsonResponse({ type: 'about:blank', title: 'Too Many Requests', status: 429 }, 429, {
        'Retry-After': '30',
      }),
    );
    const { user } = renderWithQuery(<SignInForm onSignedIn={() => undefined} />);
    await user.type(screen.getByLabelText('Client ID'), 'cid');
    await user.type(screen.getByLabelText('Client secret'), 'x');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many sign-in attempts. Try again in 30 s.',
    );
  });

  it('asks for missing fields without calling the server', async () => {
    const fetchMock = mockBff(() => jsonResponse({}));
    const { user } = renderWithQuery(<SignInForm onSignedIn={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByLabelText('Client ID')).toHaveAccessibleDescription('Enter your client ID');
    expect(fetchMock.mock.calls.some(([url]) => url === '/bff/login')).toBe(false);
  });

  it('asks an optional, unverified email only where the region needs it, and sends it', async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/bff/config') {
        return jsonResponse({
          regions: [
            { id: 'default', label: 'Ours', profile: 'extended' },
            { id: 'eu', label: 'Tenant EU', profile: 'hosted', askEmail: true },
          ],
        });
      }
      return jsonResponse({
        user: { clientId: 'cid', role: 'UNKNOWN', identity: 'self', email: 'ana@x.io' },
        region: 'eu',
        expiresAt: '2030-01-01T00:00:00.000Z',
        capabilities: capabilitiesFor('hosted'),
      });
    });
    const onSignedIn = vi.fn();
    const { user } = renderWithQuery(<SignInForm onSignedIn={onSignedIn} />);
    await screen.findByRole('option', { name: 'Tenant EU' });
    expect(screen.queryByLabelText(/Your email/)).toBeNull();
    await user.selectOptions(screen.getByLabelText('Region'), 'eu');
    const email = screen.getByLabelText(/Your email/);
    expect(email).toHaveAccessibleDescription(/marked unverified/);
    await user.type(screen.getByLabelText('Client ID'), 'cid');
    await user.type(screen.getByLabelText('Client secret'), 's3cret');
    await user.type(email, 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(fetchMock.mock.calls.some(([url]) => url === '/bff/login')).toBe(false);
    await user.clear(email);
    await user.type(email, 'ana@x.io');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await vi.waitFor(() => expect(onSignedIn).toHaveBeenCalled());
    const call = fetchMock.mock.calls.find(([url]) => url === '/bff/login');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      clientId: 'cid',
      clientSecret: 's3cret',
      region: 'eu',
      email: 'ana@x.io',
    });
  });
});

describe('SignInForm with the page it leads to', () => {
  it('names that page to the sign-in, and hands on the first rows that came back', async () => {
    const firstPage = {
      request: { recordType: 'apps', alias: 'support', filter: 'A==1', first: 100 },
      page: { paging: { has_previous_page: false, has_next_page: false }, total: 0, items: [] },
    };
    const fetchMock = mockBff(() =>
      jsonResponse({
        user: { clientId: 'cid', role: 'ADMIN', identity: 'api' },
        region: 'default',
        expiresAt: '2030-01-01T00:00:00.000Z',
        capabilities: capabilitiesFor('extended'),
        firstPage,
      }),
    );
    const next = `/records/apps/support?filter=${encodeURIComponent('A==1')}`;
    const onSignedIn = vi.fn();
    const { user } = renderWithQuery(<SignInForm next={next} onSignedIn={onSignedIn} />);
    await screen.findByRole('option', { name: 'EU' });
    await user.type(screen.getByLabelText('Client ID'), 'cid');
    await user.type(screen.getByLabelText('Client secret'), 's3cret');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await vi.waitFor(() =>
      expect(onSignedIn).toHaveBeenCalledWith(
        expect.objectContaining({ firstPage: SignInFirstPageSchema.parse(firstPage) }),
      ),
    );
    const call = fetchMock.mock.calls.find(([url]) => url === '/bff/login');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      clientId: 'cid',
      clientSecret: 's3cret',
      region: 'default',
      next,
    });
  });
});
