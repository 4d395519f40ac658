import type { Field } from '@wsc/api-client';

import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { Label } from '@/components/ui/label.tsx';
import { UserPicker } from '@/components/user-picker.tsx';

/** `a`: a people search (type-ahead over /users); Enter picks, Escape cancels. */
export function AssigneeDialog({
  open,
  onOpenChange,
  field,
  recordId,
  onPick,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  field: Field;
  recordId: string;
  onPick: (email: string) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="top-[20%] translate-y-0">
        <DialogHeader>
          <DialogTitle>
            {field.name} for {recordId}
          </DialogTitle>
          <DialogDescription>Type a name or email, then Enter to assign.</DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor="triage-assignee-picker">{field.name}</Label>
          {/* Mounted only while open, so each opening starts with an empty search. */}
          {open && (
            <UserPicker
              id="triage-assignee-picker"
              value=""
              onChange={(email) => email && onPick(email)}
              placeholder="Search people…"
            />
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}
