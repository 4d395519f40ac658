import { X } from 'lucide-react';
import { useEffect, useId, useSyncExternalStore } from 'react';

import { Button } from '@/components/ui/button.tsx';

export interface ToastOptions {
  message: string;
  /** One action, typically Undo. Clicking it runs `onClick` and closes the toast. */
  action?: { label: string; onClick: () => void };
  /** Milliseconds before the toast closes by itself (paused while hovered or focused). */
  duration?: number;
  /** Runs when the toast closes by itself or is dismissed, but not after its action: a delayed commit. */
  onExpire?: () => void;
}

interface ToastItem extends ToastOptions {
  id: number;
  remaining: number;
  startedAt: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

// Module state rather than context: toasts outlive the component that raised them (an undo toast
// keeps counting after the record panel closes), and its timers must too.
let toasts: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const hosts: string[] = [];
const hostListeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

function close(id: number, expired: boolean) {
  const item = toasts.find((t) => t.id === id);
  if (!item) return;
  clearTimeout(item.timer);
  toasts = toasts.filter((t) => t.id !== id);
  emit();
  if (expired) item.onExpire?.();
}

function arm(item: ToastItem) {
  item.startedAt = Date.now();
  item.timer = setTimeout(() => close(item.id, true), item.remaining);
}

/**
 * Shows a short message with an optional action (Undo) in the live region; returns its id.
 *
 * @example
 * toast({
 *   message: 'Attachment removed',
 *   action: { label: 'Undo', onClick: restore },
 *   onExpire: commitDelete,
 * });
 */
export function toast(options: ToastOptions): number {
  const id = nextId++;
  const item: ToastItem = {
    duration: 6000,
    ...options,
    id,
    remaining: options.duration ?? 6000,
    startedAt: Date.now(),
    timer: undefined,
  };
  // At most three at once; an evicted toast counts as expired so its delayed commit still runs.
  for (const old of toasts.slice(0, -2)) close(old.id, true);
  toasts = [...toasts, item];
  arm(item);
  emit();
  return id;
}

/**
 * Closes a toast as if it expired (its `onExpire` runs): "Dismiss" means "yes, go ahead".
 *
 * @example
 * dismissToast(id);
 */
export function dismissToast(id: number): void {
  close(id, true);
}

/** Pauses or resumes a toast's countdown (WCAG 2.2.1: the user gets the time they need). */
function setPaused(id: number, paused: boolean) {
  const item = toasts.find((t) => t.id === id);
  if (!item) return;
  if (paused && item.timer !== undefined) {
    clearTimeout(item.timer);
    item.timer = undefined;
    item.remaining = Math.max(1000, item.remaining - (Date.now() - item.startedAt));
  } else if (!paused && item.timer === undefined) {
    arm(item);
  }
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const subscribeHosts = (listener: () => void) => {
  hostListeners.add(listener);
  return () => hostListeners.delete(listener);
};
const snapshot = () => toasts;
const topHost = () => hosts.at(-1);

/**
 * The live region that shows toasts. Mount one in the app shell and one inside each modal sheet
 * or dialog: a modal makes everything outside it inert, so only the most recently mounted host
 * shows the toasts and its Undo stays reachable. A non-modal panel (the record panel) needs none.
 *
 * @example
 * <Toaster />
 */
export function Toaster() {
  const hostId = useId();
  const items = useSyncExternalStore(subscribe, snapshot, snapshot);
  const active = useSyncExternalStore(subscribeHosts, topHost, topHost) === hostId;
  useEffect(() => {
    hosts.push(hostId);
    for (const listener of hostListeners) listener();
    return () => {
      hosts.splice(hosts.indexOf(hostId), 1);
      for (const listener of hostListeners) listener();
    };
  }, [hostId]);

  return (
    <div
      role="status"
      aria-live="polite"
      aria-label="Notifications"
      data-slot="toaster"
      className="pointer-events-none fixed inset-x-0 bottom-4 z-[60] flex flex-col items-center gap-2 px-4"
    >
      {active &&
        items.map((item) => (
          <div
            key={item.id}
            data-slot="toast"
            className="bg-popover text-popover-foreground pointer-events-auto flex w-full max-w-md items-center gap-3 rounded-lg border py-2 pr-2 pl-4 text-sm shadow-lg"
            onMouseEnter={() => setPaused(item.id, true)}
            onMouseLeave={() => setPaused(item.id, false)}
            onFocus={() => setPaused(item.id, true)}
            onBlur={() => setPaused(item.id, false)}
          >
            <span className="min-w-0 flex-1">{item.message}</span>
            {item.action && (
              <Button
                variant="outline"
                size="xs"
                onClick={() => {
                  item.action?.onClick();
                  close(item.id, false);
                }}
              >
                {item.action.label}
              </Button>
            )}
            <Button
              variant="ghost"
              size="icon-sm"
              className="size-7"
              aria-label="Dismiss notification"
              onClick={() => close(item.id, true)}
            >
              <X aria-hidden="true" />
            </Button>
          </div>
        ))}
    </div>
  );
}
