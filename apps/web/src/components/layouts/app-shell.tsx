import { Link } from '@tanstack/react-router';
import {
  Clock,
  DatabaseZap,
  LogOut,
  Monitor,
  Moon,
  Sun,
  UserRound,
  UsersRound,
} from 'lucide-react';

import type { SessionUser } from '@wsc/api-client';

import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { useTheme } from '@/lib/theme.ts';

function initials(user: SessionUser): string {
  const letters = `${user.firstName?.charAt(0) ?? ''}${user.lastName?.charAt(0) ?? ''}`;
  return (letters || user.email?.charAt(0) || user.clientId.charAt(0)).toUpperCase();
}

/** Name, else email, else the API client id signed in with. */
function shownName(user: SessionUser): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email || user.clientId;
}

/** The line under the name: email (marked unverified when only typed at sign-in) and role. */
function userDetail(user: SessionUser): string {
  const parts: string[] = [];
  if (user.email && shownName(user) !== user.email) parts.push(user.email);
  if (user.identity === 'self') parts.push('unverified');
  if (user.identity === 'none') parts.push(`client ${user.clientId}`);
  if (user.role !== 'UNKNOWN') parts.push(user.role.toLowerCase());
  return parts.join(' · ');
}

/**
 * The signed-in frame: a skip link, the left sidebar (navigation slot), and the top bar with the
 * user, their region, the theme menu and sign-out.
 */
export function AppShell({
  user,
  region,
  sidebar,
  onSignOut,
  signingOut,
  search,
  workspaceSetup = false,
  history = false,
  children,
}: {
  user: SessionUser;
  region: string;
  /** Offer the Workspace setup page (the hosted profile: definitions are described in the BFF). */
  workspaceSetup?: boolean;
  /** Link the record history's log (administrators). */
  history?: boolean;
  sidebar: React.ReactNode;
  onSignOut: () => void;
  signingOut?: boolean;
  /** The header's search entry (the command palette launcher). */
  search?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <div className="bg-background flex h-dvh overflow-hidden">
      <a
        href="#main"
        className="bg-primary text-primary-foreground sr-only z-50 rounded-md px-3 py-2 focus:not-sr-only focus:absolute focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <aside className="border-sidebar-border bg-sidebar text-sidebar-foreground hidden w-60 shrink-0 flex-col border-r md:flex">
        <div className="border-sidebar-border flex h-12 items-center gap-2 border-b px-4">
          <Link
            to="/"
            className="focus-visible:ring-ring/50 flex items-center gap-2 rounded-sm font-semibold outline-none focus-visible:ring-[3px]"
          >
            <img src="/favicon.svg" alt="" className="size-5" />
            <span>Workspace Console</span>
          </Link>
        </div>
        <nav aria-label="Records" className="min-h-0 flex-1 overflow-y-auto px-2 py-3">
          {sidebar}
        </nav>
        <DirectoryNav workspaceSetup={workspaceSetup} history={history} />
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex h-12 shrink-0 items-center gap-3 border-b px-4">
          <Link to="/" className="font-semibold md:hidden">
            Workspace Console
          </Link>
          {search}
          <div className="ml-auto flex items-center gap-2">
            <Badge variant="outline" title="API region" data-testid="region-badge">
              Region: {region}
            </Badge>
            <ThemeSwitch />
            <div className="flex items-center gap-2 pl-1">
              <span
                aria-hidden="true"
                className="bg-primary text-primary-foreground flex size-7 items-center justify-center rounded-full text-xs font-semibold"
              >
                {initials(user)}
              </span>
              <div className="hidden flex-col leading-tight sm:flex">
                <span className="text-sm font-medium" data-testid="signed-in-user">
                  {shownName(user)}
                </span>
                <span
                  className="text-muted-foreground text-xs"
                  title={
                    user.identity === 'self'
                      ? 'You typed this email at sign-in; the service has not confirmed it'
                      : undefined
                  }
                >
                  {userDetail(user)}
                </span>
              </div>
            </div>
            <Button variant="ghost" size="sm" onClick={onSignOut} disabled={signingOut}>
              <LogOut aria-hidden="true" />
              Sign out
            </Button>
          </div>
        </header>
        <main id="main" className="flex min-h-0 flex-1 flex-col" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}

const DIRECTORY_LINKS = [
  { to: '/users', label: 'Users', Icon: UserRound },
  { to: '/groups', label: 'Groups', Icon: UsersRound },
] as const;

const WORKSPACE_LINK = { to: '/workspace', label: 'Workspace setup', Icon: DatabaseZap } as const;
// The clock is in the first load already (error panels use it); a history icon of its own is not.
const HISTORY_LINK = { to: '/history', label: 'History', Icon: Clock } as const;

/**
 * The sidebar's second section: people and groups (everyone signed in may read them; what a
 * member may not change, the pages themselves leave out), and the workspace description where
 * the BFF keeps one (hosted profile), and for administrators the record history's log.
 */
function DirectoryNav({ workspaceSetup, history }: { workspaceSetup: boolean; history: boolean }) {
  const links = [
    ...DIRECTORY_LINKS,
    ...(workspaceSetup ? [WORKSPACE_LINK] : []),
    ...(history ? [HISTORY_LINK] : []),
  ];
  return (
    <nav aria-labelledby="nav-directory" className="border-sidebar-border border-t px-2 py-3">
      <h2 id="nav-directory" className="text-muted-foreground px-2 pb-1 text-xs font-medium">
        Directory
      </h2>
      <ul className="grid gap-0.5">
        {links.map(({ to, label, Icon }) => (
          <li key={to}>
            <Link
              to={to}
              className="hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-ring/50 aria-[current=page]:bg-sidebar-accent aria-[current=page]:text-sidebar-accent-foreground flex items-center gap-2 rounded-md px-2 py-1.5 text-sm outline-none focus-visible:ring-[3px] aria-[current=page]:font-medium"
            >
              <Icon aria-hidden="true" className="text-muted-foreground size-4" />
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

const THEME_OPTIONS = [
  { value: 'light', label: 'Light', Icon: Sun },
  { value: 'dark', label: 'Dark', Icon: Moon },
  { value: 'system', label: 'System', Icon: Monitor },
] as const;

/**
 * Light, dark, or follow the system (the default); persisted in localStorage. A segmented control
 * of toggle buttons rather than a menu: one click, and no popover code in the first-load bundle.
 */
export function ThemeSwitch() {
  const { choice, setTheme } = useTheme();
  return (
    <div role="group" aria-label="Theme" className="inline-flex rounded-md border p-0.5">
      {THEME_OPTIONS.map(({ value, label, Icon }) => (
        <button
          key={value}
          type="button"
          aria-pressed={choice === value}
          aria-label={`${label} theme`}
          title={`${label} theme`}
          onClick={() => setTheme(value)}
          className="text-muted-foreground hover:text-foreground focus-visible:ring-ring/50 aria-pressed:bg-secondary aria-pressed:text-foreground inline-flex size-7 items-center justify-center rounded-sm outline-none focus-visible:ring-[3px]"
        >
          <Icon aria-hidden="true" className="size-4" />
        </button>
      ))}
    </div>
  );
}
