// Wraps a record's form: the tab counts as editing while a field of the form has focus, and the
// first step into a field of a record someone else is editing asks first ("Ana is editing this
// record. Edit anyway?"). Declining leaves the form untouched; accepting is remembered for the
// record while it stays open.
import type { ReactNode } from 'react';
import { useRef, useState } from 'react';

import type { PresenceEntry } from '@wsc/api-client/bff-events';

import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { editorsOf, useAnnounceEditing } from '@/lib/use-live-presence.ts';

const isField = (el: EventTarget | null) =>
  el instanceof HTMLElement && el.matches('input, textarea, select, [contenteditable="true"]');

/**
 * The guard around a form of the record whose presence `others` lists.
 *
 * @example
 * <EditingGuard others={usePresence(recordType, alias, id)}><RecordEditor ... /></EditingGuard>
 */
export function EditingGuard({
  others,
  children,
}: {
  others: readonly PresenceEntry[];
  children: ReactNode;
}) {
  const [editing, setEditing] = useState(false);
  const [asking, setAsking] = useState<string[] | null>(null);
  const accepted = useRef(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const resume = useRef<HTMLElement | null>(null);
  useAnnounceEditing(editing);
  const editors = editorsOf(others);

  return (
    <div
      ref={wrapper}
      className="contents"
      onFocusCapture={(event) => {
        if (!isField(event.target)) return;
        if (editors.length > 0 && !accepted.current) {
          resume.current = event.target as HTMLElement;
          (event.target as HTMLElement).blur();
          setAsking(editors);
          return;
        }
        setEditing(true);
      }}
      onBlurCapture={(event) => {
        const next = event.relatedTarget;
        if (!(next instanceof Node) || !wrapper.current?.contains(next)) setEditing(false);
      }}
    >
      {children}
      <Dialog open={asking !== null} onOpenChange={(open) => !open && setAsking(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>
              {asking?.join(' and ')} {asking && asking.length > 1 ? 'are' : 'is'} editing this
              record. Edit anyway?
            </DialogTitle>
            <DialogDescription>
              Your changes and theirs may collide; whoever saves second is told the record changed.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setAsking(null)}>
              Not now
            </Button>
            <Button
              onClick={() => {
                accepted.current = true;
                setAsking(null);
                const target = resume.current;
                // After the dialog has closed and given focus back.
                setTimeout(() => target?.focus(), 0);
              }}
            >
              Edit anyway
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}
