import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';

import type { TriageFields } from '../lib/triage-fields.ts';
import { TRIAGE_SHORTCUTS } from '../lib/triage-keys.ts';

/** `?`: every triage shortcut, with this definition's status and severity values spelled out. */
export function ShortcutsDialog({
  open,
  onOpenChange,
  fields,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  fields: TriageFields;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Keyboard shortcuts</DialogTitle>
          <DialogDescription>
            Single keys work whenever you are not typing in a field. Escape leaves a field.
          </DialogDescription>
        </DialogHeader>
        <table className="w-full text-sm">
          <caption className="sr-only">Triage shortcuts</caption>
          <thead className="sr-only">
            <tr>
              <th scope="col">Keys</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {TRIAGE_SHORTCUTS.map((shortcut) => (
              <tr key={shortcut.label} className="border-b last:border-0">
                <td className="py-1.5 pr-4 whitespace-nowrap">
                  {shortcut.keys.map((key, i) => (
                    <kbd
                      key={`${key}-${i}`}
                      className="bg-muted mr-1 rounded border px-1.5 py-0.5 font-mono text-xs"
                    >
                      {key}
                    </kbd>
                  ))}
                </td>
                <td className="py-1.5">{shortcut.label}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {(fields.status || fields.severity) && (
          <dl className="text-muted-foreground grid gap-1 text-xs">
            {fields.status && (
              <div>
                <dt className="inline font-medium">{fields.status.name}: </dt>
                <dd className="inline">
                  {(fields.status.values ?? [])
                    .slice(0, 9)
                    .map((v, i) => `${i + 1} ${v}`)
                    .join(' · ')}
                </dd>
              </div>
            )}
            {fields.severity && (
              <div>
                <dt className="inline font-medium">{fields.severity.name}: </dt>
                <dd className="inline">
                  {(fields.severity.values ?? [])
                    .slice(0, 9)
                    .map((v, i) => `⇧${i + 1} ${v}`)
                    .join(' · ')}
                </dd>
              </div>
            )}
          </dl>
        )}
      </DialogContent>
    </Dialog>
  );
}
